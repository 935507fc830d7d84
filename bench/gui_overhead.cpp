// SPDX-License-Identifier: GPL-3.0-or-later
// Trains through the workbench's Training page (offscreen, with the live plot)
// and reports what the GUI costs: training throughput, the longest stall of the
// event loop while training, and how many redraws the plot made. bench/gui_overhead.sh
// runs it next to `gpumem train` with the same settings.
//   gpumem_gui_overhead DATA.csv TARGET SEQUENCE_COLUMN IGNORED_COLUMNS EPOCHS

#include "OffscreenBench.h"
#include "data/ColumnRoles.h"
#include "data/TableLoader.h"
#include "io/Json.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/Presets.h"
#include "ui/app/EventLoopStallMeter.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/LossPlot.h"
#include "ui/pages/TrainingPage.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>
#include <sstream>

int main(int argc, char **argv)
{
    if (!gpumem::bench::startOffscreen(argc, argv, 5, 5, "DATA.csv TARGET SEQUENCE_COLUMN IGNORED,COLUMNS EPOCHS"))
        return 1;
    QApplication application(argc, argv);
    gpumem::ui::WorkbenchState state;
    const auto table = std::make_shared<const gpumem::data::Table>(gpumem::data::loadTable(argv[1]));
    state.setTable(table, QString::fromLocal8Bit(argv[1]));
    gpumem::data::RoleRequest request;
    request.target = argv[2];
    request.sequenceColumn = argv[3];
    std::stringstream ignored(argv[4]);
    for (std::string column; std::getline(ignored, column, ',');)
        request.ignored.push_back(column);
    state.setRoles(gpumem::data::assignRoles(*table, request));
    gpumem::models::Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
    const std::string preset = gpumem::models::presetPath("fast");
    hyperparameters.apply(gpumem::io::readJsonFile(preset), preset);
    hyperparameters.setFromText("epochs", argv[5]);
    state.setHyperparameters(hyperparameters);

    gpumem::ui::TrainingPage page(&state);
    page.resize(1400, 900);
    page.show();

    gpumem::ui::EventLoopStallMeter stalls;
    QObject::connect(&page, &gpumem::ui::TrainingPage::trainingFinished, [&](bool succeeded) {
        stalls.stop();
        const auto &result = page.lastResult();
        const double rate = result.epochs.empty() ? 0.0 : result.epochs.back().samplesPerSecond;
        std::printf("{\"succeeded\": %s, \"samples_per_second\": %.1f, \"seconds\": %.2f, \"max_stall_ms\": %.1f, "
                    "\"replots\": %d, \"batch_points\": %d}\n",
                    succeeded ? "true" : "false", rate, result.seconds, stalls.longestStallMilliseconds(),
                    page.plot()->replotCount(), page.plot()->batchPointCount());
        QApplication::exit(succeeded ? 0 : 1);
    });
    QTimer::singleShot(0, [&] {
        stalls.start();
        if (!page.start()) {
            std::fprintf(stderr, "%s\n", page.statusText().toLocal8Bit().constData());
            QApplication::exit(1);
        }
    });
    return QApplication::exec();
}
