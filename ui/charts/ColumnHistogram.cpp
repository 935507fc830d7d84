// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ColumnHistogram.h"

#include "ui/charts/QCustomPlotInclude.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpumem::ui {

void drawHistogram(QCustomPlot *plot, const data::Column &column)
{
    plot->clearPlottables();
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    std::size_t present = 0;
    for (double value : column.numbers)
        if (std::isfinite(value)) {
            low = std::min(low, value);
            high = std::max(high, value);
            ++present;
        }
    if (present == 0) {
        plot->replot();
        return;
    }
    const int bins = std::clamp(static_cast<int>(std::sqrt(static_cast<double>(present))), 1, 60);
    const double width = high > low ? (high - low) / bins : 1.0;
    QVector<double> centres(bins), counts(bins, 0.0);
    for (int bin = 0; bin < bins; ++bin)
        centres[bin] = low + (bin + 0.5) * width;
    for (double value : column.numbers)
        if (std::isfinite(value))
            counts[std::clamp(static_cast<int>((value - low) / width), 0, bins - 1)] += 1.0;
    auto *bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setWidth(width * 0.9);
    bars->setData(centres, counts, true);
    bars->setPen(QPen(QColor(40, 90, 160)));
    bars->setBrush(QColor(90, 140, 210));
    plot->xAxis->setLabel(QString::fromStdString(column.name));
    plot->rescaleAxes();
    plot->yAxis->setRangeLower(0.0);
    plot->xAxis->scaleRange(1.05);
    plot->replot();
}

} // namespace gpumem::ui
