// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ImportanceChart.h"

#include "ui/charts/ComparisonCharts.h"
#include "ui/widgets/QtText.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLineSeries>
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
    QStringList categories;
    // Horizontal bars grow upwards from the first category: adding the inputs last to first puts the first on top.
    for (auto input = importance.rbegin(); input != importance.rend(); ++input) {
        *set << input->mean;
        categories << qtText(input->input);
    }
    auto *bars = new QHorizontalBarSeries;
    bars->append(set);
    bars->setBarWidth(0.6);
    chart->addSeries(bars);
    auto *axisInputs = new QBarCategoryAxis;
    axisInputs->append(categories);
    auto *axisValues = new QValueAxis;
    // A shuffle can help by chance: a little below zero stays in view rather than off the axis.
    axisValues->setRange(axis.minimum, axis.maximum);
    axisValues->setTitleText(QObject::tr("RMSE increase when shuffled (MiB)"));
    // Finer than the default five ticks: with one wide range the round steps would otherwise be coarse.
    axisValues->setTickCount(7);
    axisValues->applyNiceNumbers();
    labelTicksPlainly(axisValues);
    chart->addAxis(axisInputs, Qt::AlignLeft);
    chart->addAxis(axisValues, Qt::AlignBottom);
    bars->attachAxis(axisInputs);
    bars->attachAxis(axisValues);
    for (std::size_t index = 0; index < importance.size(); ++index) {
        const auto &input = importance[index];
        if (input.measurements < 2)
            continue;
        const double low = input.mean - input.standardDeviation;
        const double high = input.mean + input.standardDeviation;
        const double y = static_cast<double>(importance.size() - 1 - index);
        auto *whisker = new QLineSeries;
        whisker->setPen(QPen(Qt::black, 1.5));
        *whisker << QPointF(low, y - 0.12) << QPointF(low, y + 0.12) << QPointF(low, y) << QPointF(high, y)
                 << QPointF(high, y - 0.12) << QPointF(high, y + 0.12);
        chart->addSeries(whisker);
        whisker->attachAxis(axisValues);
        whisker->attachAxis(axisInputs);
    }
    chart->legend()->hide();
    return chart;
}

} // namespace gpumem::ui
