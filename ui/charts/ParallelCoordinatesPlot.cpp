// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ParallelCoordinatesPlot.h"

#include "ui/charts/QCustomPlotInclude.h"
#include "ui/charts/RunRelationChart.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpumem::ui {

namespace {

// One vertical axis: where each run sits on it, from 0 (bottom) to 1 (top), and the
// texts at its ends.
struct ParallelAxis
{
    QString name;
    std::vector<double> positions; // per run
    QString bottom;
    QString top;
};

QString valueText(double value)
{
    return QString::number(value, 'g', 4);
}

// Places values (NaN for a run without one) on an axis: a linear or logarithmic span of
// the numbers, or the texts at even steps in order of appearance.
ParallelAxis placedAxis(const std::string &name, const std::vector<const models::HyperparameterValue *> &values)
{
    ParallelAxis axis;
    axis.name = QString::fromStdString(name);
    std::vector<std::string> categories;
    std::vector<double> numbers;
    for (const auto *value : values) {
        if (!value)
            continue;
        if (const auto *text = std::get_if<std::string>(value)) {
            if (std::find(categories.begin(), categories.end(), *text) == categories.end())
                categories.push_back(*text);
        } else {
            numbers.push_back(runs::hyperparameterValueNumber(*value));
        }
    }
    if (!categories.empty()) {
        for (const auto *value : values) {
            const auto *text = value ? std::get_if<std::string>(value) : nullptr;
            const auto index = text ? std::find(categories.begin(), categories.end(), *text) - categories.begin() : 0;
            axis.positions.push_back(!text ? std::nan("")
                                     : categories.size() == 1
                                         ? 0.5
                                         : static_cast<double>(index) / static_cast<double>(categories.size() - 1));
        }
        axis.bottom = QString::fromStdString(categories.front());
        axis.top = QString::fromStdString(categories.back());
        return axis;
    }
    const bool logarithmic = wantsLogarithmicAxis(name, numbers);
    const auto scaled = [logarithmic](double value) { return logarithmic ? std::log10(value) : value; };
    double lowest = std::numeric_limits<double>::infinity();
    double highest = -std::numeric_limits<double>::infinity();
    for (double number : numbers) {
        lowest = std::min(lowest, number);
        highest = std::max(highest, number);
    }
    const double span = numbers.empty() ? 0.0 : scaled(highest) - scaled(lowest);
    for (const auto *value : values) {
        const double number = value ? runs::hyperparameterValueNumber(*value) : std::nan("");
        axis.positions.push_back(!std::isfinite(number) ? std::nan("")
                                 : span > 0.0           ? (scaled(number) - scaled(lowest)) / span
                                                        : 0.5);
    }
    if (!numbers.empty()) {
        axis.bottom = valueText(lowest);
        axis.top = valueText(highest);
    }
    if (logarithmic)
        axis.name += QObject::tr(" (log)");
    return axis;
}

QCPItemText *axisText(QCustomPlot *chart, double x, double y, const QString &text, Qt::Alignment alignment)
{
    auto *item = new QCPItemText(chart);
    item->position->setCoords(x, y);
    item->setPositionAlignment(alignment);
    item->setText(text);
    item->setFont(chart->font());
    item->setClipToAxisRect(false);
    return item;
}

} // namespace

ParallelCoordinatesPlot::ParallelCoordinatesPlot(QWidget *parent)
    : RunsChart(QStringLiteral("runParallelCoordinates"), tr("Runs across their hyperparameters"),
                QStringLiteral("run_parallel_coordinates"), parent)
    , mScale(new QCPColorScale(mChart))
{
    mChart->setToolTip(tr("One line per run through its hyperparameter values and its validation RMSE; "
                          "the darker, the lower the error"));
    // The axes are drawn as items: the plot's own axes and grid would only add a meaningless scale.
    for (QCPAxis *axis : {mChart->xAxis, mChart->yAxis}) {
        axis->setVisible(false);
        axis->grid()->setVisible(false);
    }
    mChart->yAxis->setRange(-0.12, 1.12);
    // Right of the plot, in the row below the title.
    mChart->plotLayout()->addElement(1, 1, mScale);
    mScale->setType(QCPAxis::atRight);
    // Dark for a low error, light for a high one, evenly bright in between (as viridis), so
    // that the best runs stand out on the white background and the order reads in grey print.
    QCPColorGradient gradient;
    gradient.setColorStopAt(0.0, QColor(68, 1, 84));
    gradient.setColorStopAt(0.5, QColor(33, 145, 140));
    gradient.setColorStopAt(1.0, QColor(253, 231, 37));
    mScale->setGradient(gradient);
    mScale->axis()->setLabel(tr("validation RMSE (MiB)"));
}

void ParallelCoordinatesPlot::showRuns(const std::vector<runs::RunRecord> &runs,
                                       const std::vector<std::string> &hyperparameters)
{
    mChart->clearGraphs();
    mChart->clearItems();
    mAxisNames.clear();
    std::vector<const runs::RunRecord *> drawn;
    for (const auto &run : runs)
        if (run.validationMetrics && std::isfinite(run.validationMetrics->rmse))
            drawn.push_back(&run);
    std::vector<ParallelAxis> axes;
    for (const std::string &name : hyperparameters) {
        std::vector<const models::HyperparameterValue *> values;
        for (const runs::RunRecord *run : drawn)
            values.push_back(run->hyperparameter(name));
        axes.push_back(placedAxis(name, values));
    }
    std::vector<double> errors;
    for (const runs::RunRecord *run : drawn)
        errors.push_back(run->validationMetrics->rmse);
    const auto [lowest, highest] = std::minmax_element(errors.begin(), errors.end());
    const QCPRange errorRange = errors.empty() ? QCPRange(0.0, 1.0) : QCPRange(*lowest, *highest);
    ParallelAxis error;
    error.name = tr("validation RMSE (MiB)");
    for (double value : errors)
        error.positions.push_back(errorRange.size() > 0.0 ? (value - errorRange.lower) / errorRange.size() : 0.5);
    if (!errors.empty()) {
        error.bottom = valueText(errorRange.lower);
        error.top = valueText(errorRange.upper);
    }
    axes.push_back(error);

    mScale->setDataRange(errorRange.size() > 0.0 ? errorRange
                                                 : QCPRange(errorRange.lower - 1.0, errorRange.upper + 1.0));
    QCPColorGradient gradient = mScale->gradient(); // color() fills its lookup table: not const
    for (std::size_t run = 0; run < drawn.size(); ++run) {
        QVector<double> xs;
        QVector<double> ys;
        for (std::size_t axis = 0; axis < axes.size(); ++axis)
            if (std::isfinite(axes[axis].positions[run])) {
                xs.push_back(static_cast<double>(axis));
                ys.push_back(axes[axis].positions[run]);
            }
        QCPGraph *line = mChart->addGraph();
        line->setName(QString::fromStdString(drawn[run]->name));
        line->setData(xs, ys, true);
        line->setPen(QPen(QColor::fromRgb(gradient.color(errors[run], mScale->dataRange())), 2.0));
        line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    }
    for (std::size_t axis = 0; axis < axes.size(); ++axis) {
        const double x = static_cast<double>(axis);
        auto *line = new QCPItemLine(mChart);
        line->start->setCoords(x, 0.0);
        line->end->setCoords(x, 1.0);
        line->setPen(QPen(QColor(90, 90, 90), 1.5));
        axisText(mChart, x, 1.04, axes[axis].name, Qt::AlignHCenter | Qt::AlignBottom)->setFont([this] {
            QFont bold = mChart->font();
            bold.setBold(true);
            return bold;
        }());
        mAxisNames.push_back(axes[axis].name);
    }
    // The values at the ends of each axis, just right of it.
    for (std::size_t axis = 0; axis < axes.size(); ++axis) {
        const double x = static_cast<double>(axis);
        axisText(mChart, x, 1.0, QStringLiteral(" ") + axes[axis].top, Qt::AlignLeft | Qt::AlignVCenter);
        axisText(mChart, x, 0.0, QStringLiteral(" ") + axes[axis].bottom, Qt::AlignLeft | Qt::AlignVCenter);
    }
    // Room left of the first axis for its centred name, right of the last for its values.
    mChart->xAxis->setRange(-0.5, static_cast<double>(axes.size()) - 0.4);
    mChart->replot();
}

int ParallelCoordinatesPlot::lineCount() const
{
    return mChart->graphCount();
}

} // namespace gpumem::ui
