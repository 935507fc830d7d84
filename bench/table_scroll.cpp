// SPDX-License-Identifier: GPL-3.0-or-later
// How smooth the workbench's data table is on a large file: loads DATA.csv into
// the Data page's model and view (offscreen), then jumps to STEPS evenly spaced
// positions from top to bottom and renders the view at each one. Prints the load
// time and the median and slowest paint in milliseconds (one frame is ~16 ms).
//   gpumem_table_scroll DATA.csv [STEPS]

#include "OffscreenBench.h"
#include "data/TableLoader.h"
#include "ui/models/TableModel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QImage>
#include <QScrollBar>
#include <QTableView>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char **argv)
{
    if (!gpumem::bench::startOffscreen(argc, argv, 1, 2, "DATA.csv [STEPS]"))
        return 1;
    QApplication application(argc, argv);
    const int steps = argc > 2 ? std::max(2, std::atoi(argv[2])) : 200;
    QElapsedTimer clock;
    clock.start();
    auto table = std::make_shared<const gpumem::data::Table>(gpumem::data::loadTable(argv[1]));
    const double loadSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;

    gpumem::ui::TableModel model;
    QTableView view;
    // The same view settings as the Data page.
    view.verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view.verticalHeader()->setDefaultSectionSize(view.fontMetrics().height() + 6);
    view.horizontalHeader()->setDefaultSectionSize(140);
    view.setModel(&model);
    view.resize(1200, 800);
    view.show();
    clock.restart();
    model.setTable(table);
    // Rendering into an image paints every visible cell now, whether or not a screen shows the window.
    QImage frame(view.size(), QImage::Format_ARGB32);
    view.render(&frame);
    const double firstPaint = static_cast<double>(clock.nsecsElapsed()) / 1e6;

    std::vector<double> paints;
    QScrollBar *bar = view.verticalScrollBar();
    for (int step = 0; step < steps; ++step) {
        clock.restart();
        bar->setValue(static_cast<int>(static_cast<long long>(bar->maximum()) * step / (steps - 1)));
        view.render(&frame);
        paints.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    std::sort(paints.begin(), paints.end());
    std::printf("{\"rows\": %zu, \"load_seconds\": %.2f, \"first_paint_ms\": %.1f, \"median_paint_ms\": %.2f, "
                "\"slowest_paint_ms\": %.2f}\n",
                table->rowCount(), loadSeconds, firstPaint, paints[paints.size() / 2], paints.back());
    return 0;
}
