// SPDX-License-Identifier: GPL-3.0-or-later
// Whether the workbench stays responsive around a large load: opens DATA.csv in
// the main window (offscreen) as File ▸ Open does, and reports the load's time,
// how long the window took after it to finish what the new data sets off (the
// Data page's statistics, charts and correlations, the other pages' reactions),
// and the longest stall of the GUI thread's event loop from the open until then.
// bench/load_stall.sh runs it on a generated file.
//   gpumem_load_stall DATA.csv

#include "OffscreenBench.h"
#include "ui/app/EventLoopStallMeter.h"
#include "ui/app/MainWindow.h"
#include "ui/pages/DataPage.h"
#include "ui/pages/ModelPage.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>

int main(int argc, char **argv)
{
    if (!gpumem::bench::startOffscreen(argc, argv, 1, 1, "DATA.csv"))
        return 1;
    QApplication application(argc, argv);
    // The window remembers recent files and its geometry: keep those away from the user's settings.
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("gpumem-bench"));
    const QString path = QString::fromLocal8Bit(argv[1]);

    gpumem::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    gpumem::ui::DataPage *page = window.dataPage();
    gpumem::ui::EventLoopStallMeter stalls;
    QElapsedTimer clock;
    double loadSeconds = 0;
    bool succeeded = false;
    QObject::connect(page, &gpumem::ui::DataPage::loadFinished, [&](bool loaded, const QString &) {
        loadSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
        succeeded = loaded;
    });
    // Polls until the load has ended and the page has nothing left to compute.
    QTimer settled;
    settled.setInterval(20);
    QObject::connect(&settled, &QTimer::timeout, [&] {
        if (page->isLoading() || page->isAnalysing() || window.modelPage()->isMeasuringData() || loadSeconds == 0)
            return;
        settled.stop();
        stalls.stop();
        const double settleSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9 - loadSeconds;
        std::printf("{\"succeeded\": %s, \"load_seconds\": %.2f, \"settle_seconds\": %.2f, \"max_stall_ms\": %.1f}\n",
                    succeeded ? "true" : "false", loadSeconds, settleSeconds, stalls.longestStallMilliseconds());
        QApplication::exit(succeeded ? 0 : 1);
    });
    QTimer::singleShot(0, [&] {
        clock.start();
        stalls.start();
        settled.start();
        window.openData(path);
    });
    return QApplication::exec();
}
