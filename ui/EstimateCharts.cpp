// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/EstimateCharts.h"

#include "estimate/MemoryEstimator.h"
#include "estimate/MemoryUnits.h"
#include "ui/ChartExport.h"
#include "ui/QCustomPlotInclude.h"
#include "ui/QtText.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <cmath>

namespace gpumem::ui {

namespace {

const char *const homeProperty = "estimateHomeRanges";

// The stacked layers, bottom to top: core's categories, then what the allocator
// and the CUDA runtime add. The same colours on the bar and the timeline.
struct Layer
{
    const char *name;
    QColor colour;
};
constexpr std::size_t kLayerCount = estimate::kCategoryCount + 2; // and the overhead and the context
const std::array<Layer, kLayerCount> &layers()
{
    static const std::array<Layer, kLayerCount> all = {
        {{QT_TRANSLATE_NOOP("EstimateCharts", "parameters"), QColor(31, 119, 180)},
         {QT_TRANSLATE_NOOP("EstimateCharts", "gradients"), QColor(255, 127, 14)},
         {QT_TRANSLATE_NOOP("EstimateCharts", "optimizer state"), QColor(44, 160, 44)},
         {QT_TRANSLATE_NOOP("EstimateCharts", "activations and temporaries"), QColor(214, 39, 40)},
         {QT_TRANSLATE_NOOP("EstimateCharts", "cuDNN workspaces"), QColor(140, 86, 75)},
         {QT_TRANSLATE_NOOP("EstimateCharts", "allocator overhead"), QColor(148, 103, 189)},
         {QT_TRANSLATE_NOOP("EstimateCharts", "CUDA context and workspace"), QColor(160, 160, 160)}}};
    return all;
}
constexpr std::size_t kOverheadLayer = estimate::kCategoryCount;
constexpr std::size_t kContextLayer = estimate::kCategoryCount + 1;

QString layerName(std::size_t layer)
{
    return QCoreApplication::translate("EstimateCharts", layers()[layer].name);
}

// The title is the plot layout's first row, made once by prepareEstimatePlot.
void setTitle(QCustomPlot *plot, const QString &text)
{
    if (auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->elementAt(0)))
        title->setText(text);
}

void clearPlot(QCustomPlot *plot)
{
    plot->clearPlottables();
    plot->clearItems();
    plot->xAxis->setScaleType(QCPAxis::stLinear);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
}

// Keeps the ranges a double-click returns to, and shows them.
void setHome(QCustomPlot *plot, const QCPRange &x, const QCPRange &y)
{
    plot->setProperty(homeProperty, QVariantList{x.lower, x.upper, y.lower, y.upper});
    plot->xAxis->setRange(x);
    plot->yAxis->setRange(y);
    plot->replot();
}

void goHome(QCustomPlot *plot)
{
    const QVariantList home = plot->property(homeProperty).toList();
    if (home.size() != 4)
        return;
    plot->xAxis->setRange(home[0].toDouble(), home[1].toDouble());
    plot->yAxis->setRange(home[2].toDouble(), home[3].toDouble());
    plot->replot();
}

// A label in the plot's font (tick size), so that the large-font mode reaches it.
QCPItemText *addLabel(QCustomPlot *plot, const QString &text, const QColor &colour)
{
    auto *label = new QCPItemText(plot);
    label->setText(text);
    label->setColor(colour);
    QFont font = plot->xAxis->tickLabelFont();
    label->setFont(font);
    label->setPadding(QMargins(4, 2, 4, 2));
    label->setClipToAxisRect(true);
    return label;
}

QCPItemStraightLine *addLine(QCustomPlot *plot, const QString &name, const QPen &pen, double x1, double y1, double x2,
                             double y2)
{
    auto *line = new QCPItemStraightLine(plot);
    line->setObjectName(name);
    line->setPen(pen);
    line->point1->setCoords(x1, y1);
    line->point2->setCoords(x2, y2);
    return line;
}

} // namespace

void prepareEstimatePlot(QCustomPlot *plot, const QString &exportName)
{
    QCPLayoutGrid *layout = plot->plotLayout();
    layout->insertRow(0);
    layout->addElement(0, 0, new QCPTextElement(plot, QString()));
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // Below the axes, in rows: inside, it would hide bars, points or bands wherever it stood.
    plot->axisRect()->insetLayout()->take(plot->legend);
    layout->addElement(2, 0, plot->legend);
    layout->setRowStretchFactor(2, 0.001);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(3);
    plot->legend->setVisible(true);
    plot->setMinimumHeight(220);
    QObject::connect(plot, &QCustomPlot::mouseDoubleClick, plot, [plot] { goHome(plot); });
    installChartExport(plot, exportName);
}

void clearEstimatePlot(QCustomPlot *plot, const QString &title)
{
    clearPlot(plot);
    setTitle(plot, title);
    plot->legend->setVisible(false);
    plot->replot();
}

void showMemoryByBatch(QCustomPlot *plot, const estimate::EstimateResult &result)
{
    clearPlot(plot);
    const estimate::GpuProfile &profile = result.profile;
    setTitle(
        plot,
        QCoreApplication::translate("EstimateCharts", "GPU memory against batch size on %1").arg(qtText(profile.name)));
    QVector<double> batches;
    QVector<double> totals;
    QVector<double> allocated;
    for (const auto &estimate : result.estimates) {
        batches << static_cast<double>(estimate.batchSize);
        totals << estimate.deviceTotalMib();
        allocated << estimate::mibOf(estimate.peakAllocatedBytes);
    }
    QCPGraph *total = plot->addGraph();
    total->setName(QCoreApplication::translate("EstimateCharts", "device total (what nvidia-smi shows)"));
    total->setPen(QPen(QColor(31, 119, 180), 2.0));
    total->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 7));
    total->setData(batches, totals);
    QCPGraph *tensors = plot->addGraph();
    tensors->setName(QCoreApplication::translate("EstimateCharts", "peak allocated by tensors"));
    tensors->setPen(QPen(QColor(214, 39, 40), 1.5, Qt::DashLine));
    tensors->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    tensors->setData(batches, allocated);
    plot->legend->setVisible(true);

    const QColor capacityColour(160, 20, 20);
    addLine(plot, QStringLiteral("capacityLine"), QPen(capacityColour, 1.5, Qt::DashLine), 0.0, profile.capacityMib,
            1.0, profile.capacityMib);
    QCPItemText *capacityLabel = addLabel(plot,
                                          QCoreApplication::translate("EstimateCharts", "%1 capacity: %L2 MiB")
                                              .arg(qtText(profile.name))
                                              .arg(profile.capacityMib, 0, 'f', 0),
                                          capacityColour);
    capacityLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    capacityLabel->position->setCoords(0.99, profile.capacityMib);
    capacityLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);

    // Batch sizes are read in doublings, and the largest fitting one often lies far beyond the
    // ones asked for: a logarithmic axis keeps both readable.
    double smallestBatch = batches.isEmpty() ? 1.0 : *std::min_element(batches.begin(), batches.end());
    double largestBatch = batches.isEmpty() ? 1.0 : *std::max_element(batches.begin(), batches.end());
    if (result.maxBatch && *result.maxBatch > 0) {
        smallestBatch = std::min(smallestBatch, static_cast<double>(*result.maxBatch));
        largestBatch = std::max(largestBatch, static_cast<double>(*result.maxBatch));
    }
    const QCPRange batchRange(smallestBatch / 1.5, largestBatch * 1.5);
    if (result.maxBatch && *result.maxBatch > 0) {
        const auto fitting = static_cast<double>(*result.maxBatch);
        const QColor markerColour(30, 110, 40);
        addLine(plot, QStringLiteral("maxBatchMarker"), QPen(markerColour, 2.0, Qt::DashDotLine), fitting, 0.0, fitting,
                1.0);
        QCPItemText *label = addLabel(
            plot, QCoreApplication::translate("EstimateCharts", "largest batch that fits: %1").arg(*result.maxBatch),
            markerColour);
        label->setObjectName(QStringLiteral("maxBatchLabel"));
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(fitting, 0.5);
        // Right of the marker unless the marker stands near the right edge.
        const bool atRight =
            std::log(fitting / batchRange.lower) >= 0.7 * std::log(batchRange.upper / batchRange.lower);
        label->setPositionAlignment((atRight ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    }
    plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto doublings = QSharedPointer<QCPAxisTickerLog>::create();
    doublings->setLogBase(2.0);
    doublings->setSubTickCount(0);
    plot->xAxis->setTicker(doublings);
    plot->xAxis->setNumberFormat(QStringLiteral("f"));
    plot->xAxis->setNumberPrecision(0);
    plot->xAxis->setLabel(QCoreApplication::translate("EstimateCharts", "batch size (doublings)"));
    plot->yAxis->setLabel(QCoreApplication::translate("EstimateCharts", "GPU memory (MiB)"));
    const double highest =
        std::max(profile.capacityMib, totals.isEmpty() ? 0.0 : *std::max_element(totals.begin(), totals.end()));
    setHome(plot, batchRange, QCPRange(0.0, highest * 1.12));
}

void showBreakdown(QCustomPlot *plot, const estimate::EstimateResult &result)
{
    clearPlot(plot);
    setTitle(plot, QCoreApplication::translate("EstimateCharts", "Breakdown at the allocated peak on %1")
                       .arg(qtText(result.profile.name)));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> positions;
    std::array<QVector<double>, kLayerCount> values;
    double highest = 0.0;
    for (std::size_t index = 0; index < result.estimates.size(); ++index) {
        const estimate::BatchEstimate &estimate = result.estimates[index];
        const double position = static_cast<double>(index + 1);
        positions << position;
        ticker->addTick(position, QCoreApplication::translate("EstimateCharts", "batch %1").arg(estimate.batchSize));
        for (std::size_t category = 0; category < estimate::kCategoryCount; ++category)
            values[category] << estimate::mibOf(estimate.bytesAtPeak[category]);
        values[kOverheadLayer] << estimate::mibOf(estimate.allocatorOverheadBytes());
        values[kContextLayer] << estimate.contextMib + estimate.workspaceMib;
        highest = std::max(highest, estimate.deviceTotalMib());
    }
    QCPBars *below = nullptr;
    for (std::size_t layer = 0; layer < kLayerCount; ++layer) {
        auto *bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setObjectName(QStringLiteral("breakdown_%1").arg(layer));
        bars->setName(layerName(layer));
        bars->setPen(QPen(layers()[layer].colour.darker(130)));
        bars->setBrush(layers()[layer].colour);
        bars->setWidth(0.6);
        bars->setData(positions, values[layer]);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    plot->legend->setVisible(true);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(QString());
    plot->yAxis->setLabel(QCoreApplication::translate("EstimateCharts", "GPU memory (MiB)"));
    setHome(plot, QCPRange(0.3, static_cast<double>(positions.size()) + 0.7), QCPRange(0.0, highest * 1.1));
}

void showTimeline(QCustomPlot *plot, const estimate::EstimateResult &result, std::int64_t batchSize)
{
    clearPlot(plot);
    const auto &timeline = result.timeline;
    if (timeline.empty()) {
        clearEstimatePlot(plot, QCoreApplication::translate("EstimateCharts", "No timeline"));
        return;
    }
    setTitle(plot, QCoreApplication::translate("EstimateCharts",
                                               "Training steps at batch %1, replayed event by event (reserved on top)")
                       .arg(batchSize));
    constexpr std::size_t kStacked = estimate::kCategoryCount + 1; // the categories and the allocator overhead
    QVector<double> events;
    std::array<QVector<double>, kStacked> tops; // cumulative MiB, bottom to top
    events.reserve(static_cast<qsizetype>(timeline.size()));
    for (auto &top : tops)
        top.reserve(static_cast<qsizetype>(timeline.size()));
    for (const estimate::TimelinePoint &point : timeline) {
        events << static_cast<double>(point.eventIndex);
        std::uint64_t stacked = 0;
        for (std::size_t category = 0; category < estimate::kCategoryCount; ++category) {
            stacked += point.liveBytes[category];
            tops[category] << estimate::mibOf(stacked);
        }
        tops[kOverheadLayer] << estimate::mibOf(std::max(point.reservedBytes, stacked));
    }
    QCPGraph *below = nullptr;
    for (std::size_t layer = 0; layer < kStacked; ++layer) {
        QCPGraph *graph = plot->addGraph();
        graph->setName(layerName(layer));
        graph->setLineStyle(QCPGraph::lsStepLeft);
        graph->setPen(QPen(layers()[layer].colour.darker(120), 1.0));
        QColor fill = layers()[layer].colour;
        fill.setAlpha(170);
        graph->setBrush(fill);
        graph->setData(events, tops[layer], true);
        // Filled down to the layer below: the bands stack.
        if (below)
            graph->setChannelFillGraph(below);
        below = graph;
    }
    plot->legend->setVisible(true);

    // A mark where each phase of each step begins: setup, then forward, backward and optimizer per step.
    int step = 0;
    const QPen markPen(QColor(60, 60, 60), 1.0, Qt::DotLine);
    for (std::size_t index = 1; index < timeline.size(); ++index) {
        const estimate::Phase phase = timeline[index].phase;
        if (phase == timeline[index - 1].phase)
            continue;
        if (phase == estimate::Phase::Forward)
            ++step;
        const double x = static_cast<double>(timeline[index].eventIndex) - 0.5;
        addLine(plot, QStringLiteral("phaseMark"), markPen, x, 0.0, x, 1.0);
        QCPItemText *label = addLabel(plot, QStringLiteral("%1 %2").arg(qtText(estimate::phaseName(phase))).arg(step),
                                      QColor(40, 40, 40));
        label->setObjectName(QStringLiteral("phaseLabel"));
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(x, 0.02);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
        // Upright along the mark, so that short phases' labels do not overlap.
        label->setRotation(-90);
    }
    plot->xAxis->setLabel(QCoreApplication::translate("EstimateCharts", "event (allocation or release)"));
    plot->yAxis->setLabel(QCoreApplication::translate("EstimateCharts", "GPU memory (MiB)"));
    const double highest = *std::max_element(tops[kOverheadLayer].begin(), tops[kOverheadLayer].end());
    setHome(plot, QCPRange(-0.5, events.back() + 0.5), QCPRange(0.0, highest * 1.3)); // room for the phase labels
}

} // namespace gpumem::ui
