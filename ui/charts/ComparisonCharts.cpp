// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ComparisonCharts.h"

#include "report/ResidualHistogram.h"

#include "ui/charts/ModelColours.h"
#include "ui/widgets/QtText.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace gpumem::ui {

namespace {

// Qt Charts computes spans and tick steps in doubles, which overflow near ±1.8e308
// (a project of hostile data holds such values): charts draw a value beyond ±1e300
// MiB at ±1e300, where sums and differences of two values stay finite.
double displayable(double value)
{
    constexpr double edge = 1e300;
    return std::clamp(value, -edge, edge);
}

} // namespace

// Gives axis tick labels as plain numbers with as many decimals as the step between ticks
// needs ("10000", "0.25"), not "1e+04"; only values past a billion keep an exponent.
void labelTicksPlainly(QValueAxis *axis)
{
    const double reach = std::max(std::abs(axis->min()), std::abs(axis->max()));
    const double step = (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
    if (!std::isfinite(reach) || reach >= 1e9 || !(step > 0.0)) {
        axis->setLabelFormat(QStringLiteral("%.3g"));
        return;
    }
    const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 6);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

void styleChart(QChart *chart, const QString &title)
{
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
}

void attachValueAxes(QChart *chart, QValueAxis *x, QValueAxis *y)
{
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries *series : chart->series()) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
}

std::vector<const evaluation::MetricDescription *> chartedMetrics()
{
    std::vector<const evaluation::MetricDescription *> metrics;
    for (const auto &metric : evaluation::metricDescriptions())
        if (metric.summary)
            metrics.push_back(&metric);
    return metrics;
}

QString metricHeading(const evaluation::MetricDescription &metric)
{
    const QString unit = *metric.unit == '\0' ? QString() : QStringLiteral(" (%1)").arg(QString::fromUtf8(metric.unit));
    return QString::fromUtf8(metric.title) + unit +
           (metric.higherIsBetter ? QObject::tr("  ↑ higher is better") : QObject::tr("  ↓ lower is better"));
}

void addHorizontalBars(QChart *chart, QBarSet *set, const std::vector<HorizontalBar> &bars, QValueAxis *values)
{
    QStringList categories;
    // Horizontal bars grow upwards from the first category: adding the bars last to first
    // puts the first on top, in the order of the tables beside the chart.
    for (auto bar = bars.rbegin(); bar != bars.rend(); ++bar) {
        *set << bar->value;
        categories << bar->category;
    }
    auto *series = new QHorizontalBarSeries;
    series->append(set);
    series->setBarWidth(0.6);
    chart->addSeries(series);
    auto *axisCategories = new QBarCategoryAxis;
    axisCategories->append(categories);
    chart->addAxis(axisCategories, Qt::AlignLeft);
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(axisCategories);
    series->attachAxis(values);

    // Error bars: a cap, the whisker and a cap per bar, at the category's index.
    for (std::size_t index = 0; index < bars.size(); ++index) {
        const HorizontalBar &bar = bars[index];
        if (!bar.whisker)
            continue;
        const double y = static_cast<double>(bars.size() - 1 - index);
        auto *whisker = new QLineSeries;
        whisker->setPen(QPen(Qt::black, 1.5));
        *whisker << QPointF(bar.low, y - 0.12) << QPointF(bar.low, y + 0.12) << QPointF(bar.low, y)
                 << QPointF(bar.high, y) << QPointF(bar.high, y - 0.12) << QPointF(bar.high, y + 0.12);
        chart->addSeries(whisker);
        whisker->attachAxis(values);
        whisker->attachAxis(axisCategories);
    }
}

QChart *metricBarChart(const evaluation::ExperimentResult &result, const evaluation::MetricDescription &metric)
{
    auto *chart = new QChart;
    styleChart(chart, metricHeading(metric));
    const QString title = QString::fromUtf8(metric.title);
    auto *set = new QBarSet(title);
    set->setColor(metric.higherIsBetter ? QColor(44, 160, 44) : QColor(31, 119, 180));
    std::vector<HorizontalBar> bars;
    double low = 0.0;
    double high = 0.0;
    for (const auto &model : result.models) {
        const double mean = displayable(model.mean.*metric.member);
        const double spread = displayable(model.standardDeviation.*metric.member);
        bars.push_back({qtText(model.title), mean, model.folds.size() >= 2, mean - spread, mean + spread});
        low = std::min(low, mean - spread);
        high = std::max(high, mean + spread);
    }
    auto *axisValues = new QValueAxis;
    axisValues->setRange(low, high > low ? high * 1.08 : low + 1.0);
    axisValues->setTitleText(*metric.unit == '\0' ? title : QString::fromUtf8(metric.unit));
    axisValues->applyNiceNumbers();
    // A score such as R² never exceeds 1: the axis ends there rather than at a rounder number past it.
    if (metric.style == evaluation::MetricStyle::Score && axisValues->max() > 1.0)
        axisValues->setMax(1.0);
    labelTicksPlainly(axisValues);
    // Horizontal bars: the model names sit on the left, where there is room to read them.
    addHorizontalBars(chart, set, bars, axisValues);
    chart->legend()->hide();
    return chart;
}

QChart *predictedVsActualChart(const QString &title, const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted,
                               int maxPoints)
{
    auto *chart = new QChart;
    styleChart(chart, title);
    auto *points = new QScatterSeries;
    points->setName(QObject::tr("jobs"));
    points->setMarkerSize(5);
    points->setColor(QColor(31, 119, 180, 150));
    points->setBorderColor(Qt::transparent);
    const Eigen::Index rows = std::min(actual.size(), predicted.size());
    const Eigen::Index step = std::max<Eigen::Index>(1, rows / std::max(1, maxPoints));
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    QList<QPointF> data;
    for (Eigen::Index row = 0; row < rows; row += step) {
        if (!std::isfinite(predicted[row]) || !std::isfinite(actual[row]))
            continue;
        const QPointF point(displayable(actual[row]), displayable(predicted[row]));
        data << point;
        low = std::min({low, point.x(), point.y()});
        high = std::max({high, point.x(), point.y()});
    }
    points->replace(data);
    if (!std::isfinite(low)) {
        low = 0.0;
        high = 1.0;
    }
    // Memory is never negative: keep the axes at zero unless a model predicted below it.
    const double pad = (high - low) * 0.04 + 1.0;
    low = low >= 0.0 ? std::max(0.0, low - pad) : low - pad;
    high += pad;
    chart->addSeries(points);

    auto *diagonal = new QLineSeries;
    diagonal->setName(QObject::tr("y = x (perfect)"));
    diagonal->setPen(QPen(QColor(60, 60, 60), 1.5));
    *diagonal << QPointF(low, low) << QPointF(high, high);
    chart->addSeries(diagonal);

    std::vector<QLineSeries *> capacities;
    for (int gib : {16, 24, 40, 80}) {
        const double mib = gib * 1024.0;
        if (mib < low || mib > high)
            continue;
        auto *line = new QLineSeries;
        line->setName(QObject::tr("%1 GiB GPU").arg(gib));
        line->setPen(QPen(QColor(214, 39, 40, 170), 1.2, Qt::DashLine));
        *line << QPointF(low, mib) << QPointF(high, mib);
        chart->addSeries(line);
        capacities.push_back(line);
    }
    auto *axisX = new QValueAxis;
    axisX->setRange(low, high);
    axisX->setTitleText(QObject::tr("actual peak memory (MiB)"));
    axisX->setLabelFormat(QStringLiteral("%.0f"));
    axisX->applyNiceNumbers();
    auto *axisY = new QValueAxis;
    axisY->setRange(low, high);
    axisY->setTitleText(QObject::tr("predicted (MiB)"));
    axisY->setLabelFormat(QStringLiteral("%.0f"));
    axisY->applyNiceNumbers();
    // The lines span the rounded axes, corner to corner.
    diagonal->replace({QPointF(axisX->min(), axisX->min()), QPointF(axisX->max(), axisX->max())});
    for (QLineSeries *line : capacities)
        line->replace({QPointF(axisX->min(), line->at(0).y()), QPointF(axisX->max(), line->at(0).y())});
    attachValueAxes(chart, axisX, axisY);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QChart *residualHistogramChart(const QString &title, const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted)
{
    auto *chart = new QChart;
    styleChart(chart, title);
    // The reports' binning (report::residualHistogram): symmetric around zero, so that under-
    // and over-prediction read at a glance, up to the 98th percentile of the residuals' size.
    const report::ResidualHistogram histogram = report::residualHistogram(actual, predicted);
    if (histogram.counts.empty())
        return chart;
    const double reach = histogram.reach;
    const int bins = static_cast<int>(histogram.counts.size());
    const double width = histogram.binWidth();
    const std::vector<double> &counts = histogram.counts;

    auto *under = new QLineSeries;
    auto *over = new QLineSeries;
    auto *baseUnder = new QLineSeries;
    auto *baseOver = new QLineSeries;
    double top = 0.0;
    for (int bin = 0; bin < bins; ++bin) {
        const double left = -reach + bin * width;
        const double count = counts[static_cast<std::size_t>(bin)];
        top = std::max(top, count);
        QLineSeries *target = left + width / 2 < 0.0 ? under : over;
        QLineSeries *base = left + width / 2 < 0.0 ? baseUnder : baseOver;
        *target << QPointF(left, count) << QPointF(left + width, count);
        *base << QPointF(left, 0.0) << QPointF(left + width, 0.0);
    }
    auto *underArea = new QAreaSeries(under, baseUnder);
    underArea->setName(QObject::tr("under-predicted"));
    underArea->setColor(QColor(214, 39, 40, 190));
    underArea->setBorderColor(QColor(150, 20, 20));
    auto *overArea = new QAreaSeries(over, baseOver);
    overArea->setName(QObject::tr("over-predicted"));
    overArea->setColor(QColor(31, 119, 180, 190));
    overArea->setBorderColor(QColor(20, 70, 130));
    chart->addSeries(underArea);
    chart->addSeries(overArea);
    auto *axisX = new QValueAxis;
    axisX->setRange(-reach, reach);
    axisX->setTickCount(5); // at ±reach, ±reach/2 and 0: round numbers, as the histogram's reach is
    axisX->setTitleText(QObject::tr("predicted − actual (MiB)"));
    axisX->setLabelFormat(QStringLiteral("%g"));
    auto *axisY = new QValueAxis;
    axisY->setRange(0.0, top * 1.1);
    axisY->setTitleText(QObject::tr("jobs"));
    axisY->setLabelFormat(QStringLiteral("%.0f"));
    attachValueAxes(chart, axisX, axisY);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

QChart *boundCurveChart(const evaluation::ExperimentResult &result, double coverage)
{
    auto *chart = new QChart;
    // The markers' meaning is in the title: a legend entry for each would triple the
    // legend into rows of near-identical colours, one entry per model.
    styleChart(chart, QObject::tr("Out-of-memory risk vs wasted memory  ↙ better   (● bound at %1%, ■ +10% rule)")
                          .arg(100.0 * coverage, 0, 'g', 3));
    auto *axisWaste = new QValueAxis;
    axisWaste->setTitleText(QObject::tr("mean over-allocation (MiB per job)"));
    auto *axisRisk = new QValueAxis;
    axisRisk->setTitleText(QObject::tr("under-prediction rate (out-of-memory risk)"));
    axisRisk->setLabelFormat(QStringLiteral("%.0f%%"));
    chart->addAxis(axisWaste, Qt::AlignBottom);
    chart->addAxis(axisRisk, Qt::AlignLeft);
    double widest = 1.0;
    double riskiest = 1.0;
    std::size_t colour = 0;
    for (const auto &model : result.models) {
        if (!model.bound || model.bound->curve.empty())
            continue;
        const QColor tint = modelColour(colour++);
        auto *curve = new QLineSeries;
        curve->setName(qtText(model.title));
        curve->setPen(QPen(tint, 2));
        for (const auto &point : model.bound->curve) {
            curve->append(point.meanOverAllocation, 100.0 * point.underPredictionRate);
            widest = std::max(widest, point.meanOverAllocation);
            riskiest = std::max(riskiest, 100.0 * point.underPredictionRate);
        }
        chart->addSeries(curve);
        curve->attachAxis(axisWaste);
        curve->attachAxis(axisRisk);
        // The bound at the chosen coverage, and the "+10%" rule for reference.
        auto *chosen = new QScatterSeries;
        chosen->setName(QObject::tr("%1 at %2%").arg(qtText(model.title)).arg(100.0 * coverage, 0, 'g', 3));
        chosen->setColor(tint);
        chosen->setMarkerSize(11);
        chosen->append(model.bound->bound.meanOverAllocation, 100.0 * model.bound->bound.underPredictionRate);
        chart->addSeries(chosen);
        chosen->attachAxis(axisWaste);
        chosen->attachAxis(axisRisk);
        auto *rule = new QScatterSeries;
        rule->setName(QObject::tr("%1 +10%").arg(qtText(model.title)));
        rule->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        rule->setColor(tint.lighter(140));
        rule->setMarkerSize(9);
        rule->append(model.bound->tenPercent.meanOverAllocation, 100.0 * model.bound->tenPercent.underPredictionRate);
        widest = std::max(widest, model.bound->tenPercent.meanOverAllocation);
        chart->addSeries(rule);
        rule->attachAxis(axisWaste);
        rule->attachAxis(axisRisk);
        for (QAbstractSeries *marker : {static_cast<QAbstractSeries *>(chosen), static_cast<QAbstractSeries *>(rule)})
            for (QLegendMarker *entry : chart->legend()->markers(marker))
                entry->setVisible(false);
    }
    axisWaste->setRange(0.0, widest * 1.05);
    axisRisk->setRange(0.0, std::min(100.0, riskiest * 1.05));
    axisWaste->applyNiceNumbers();
    axisRisk->applyNiceNumbers();
    labelTicksPlainly(axisWaste);
    if (axisRisk->max() > 100.0)
        axisRisk->setMax(100.0);
    chart->legend()->setAlignment(Qt::AlignRight);
    return chart;
}

} // namespace gpumem::ui
