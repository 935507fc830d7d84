// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ImportanceChart.h"

#include "ui/charts/ComparisonCharts.h"
#include "ui/widgets/QtText.h"

#include <QBarSet>
#include <QChart>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace gpumem::ui {

ImportanceAxis importanceAxis(const evaluation::ExperimentResult &result)
{
    ImportanceAxis axis{0.0, 0.0};
    for (const auto &model : result.models)
        for (const auto &input : model.importance) {
            const double low = input.mean - input.standardDeviation;
            const double high = input.mean + input.standardDeviation;
            if (std::isfinite(low) && std::isfinite(high)) {
                axis.minimum = std::min(axis.minimum, low);
                axis.maximum = std::max(axis.maximum, high);
            }
        }
    const double margin = (axis.maximum - axis.minimum) * 0.04;
    axis.minimum = axis.minimum < 0.0 ? axis.minimum - margin : 0.0;
    axis.maximum = axis.maximum > 0.0 ? axis.maximum + margin : 1.0;
    return axis;
}

int importanceChartHeight(std::size_t inputs)
{
    // About a line of text per input, and room for the title and the axis under the bars.
    return std::max(280, 110 + 24 * static_cast<int>(inputs));
}

QChart *importanceChart(const QString &title, const std::vector<evaluation::InputImportance> &importance,
                        const ImportanceAxis &axis)
{
    auto *chart = new QChart;
    styleChart(chart, title);
    auto *set = new QBarSet(QObject::tr("RMSE increase"));
    set->setColor(QColor(31, 119, 180));
    std::vector<HorizontalBar> bars;
    for (const auto &input : importance)
        bars.push_back({qtText(input.input), input.mean, input.measurements >= 2, input.mean - input.standardDeviation,
                        input.mean + input.standardDeviation});
    auto *axisValues = new QValueAxis;
    // A shuffle can help by chance: a little below zero stays in view rather than off the axis.
    axisValues->setRange(axis.minimum, axis.maximum);
    axisValues->setTitleText(QObject::tr("RMSE increase when shuffled (MiB)"));
    // Finer than the default five ticks: with one wide range the round steps would otherwise be coarse.
    axisValues->setTickCount(7);
    axisValues->applyNiceNumbers();
    labelTicksPlainly(axisValues);
    addHorizontalBars(chart, set, bars, axisValues);
    chart->legend()->hide();
    return chart;
}

} // namespace gpumem::ui
