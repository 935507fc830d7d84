// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/EstimateCharts.h"

#include "estimate/MemoryEstimator.h"
#include "estimate/MemoryUnits.h"
#include "ui/charts/ChartExport.h"
#include "ui/charts/EmptyChartHint.h"
#include "ui/charts/EstimatePlotParts.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/widgets/QtText.h"

#include <QCoreApplication>
#include <QFontMetrics>

#include <algorithm>
#include <array>
#include <cmath>

namespace gpumem::ui {

namespace {

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
         {QT_TRANSLATE_NOOP("EstimateCharts", "gathered parameters"), QColor(23, 190, 207)},
         {QT_TRANSLATE_NOOP("EstimateCharts", "communication buffers"), QColor(188, 189, 34)},
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
    // Title, legend and ticks grow with the zoom: the plot area between them keeps room too.
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] {
        const int height = std::max(220, QFontMetrics(plot->font()).height() * 14);
        if (plot->minimumHeight() != height)
            plot->setMinimumHeight(height);
    });
    QObject::connect(plot, &QCustomPlot::mouseDoubleClick, plot, [plot] { goEstimatePlotHome(plot); });
    installChartExport(plot, exportName);
}

void clearEstimatePlot(QCustomPlot *plot, const QString &title)
{
    resetEstimatePlot(plot);
    // Said in the middle of the plot, in place of empty axes, until an estimate draws.
    setEstimatePlotTitle(plot, QString());
    setEmptyChartHint(plot, title);
    plot->legend->setVisible(false);
    plot->replot();
}

void showMemoryByBatch(QCustomPlot *plot, const estimate::EstimateResult &result)
{
    resetEstimatePlot(plot);
    const estimate::GpuProfile &profile = result.profile;
    setEstimatePlotTitle(
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

    addCapacityLine(plot, profile);

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
        addEstimatePlotLine(plot, QStringLiteral("maxBatchMarker"), QPen(markerColour, 2.0, Qt::DashDotLine), fitting,
                            0.0, fitting, 1.0);
        QCPItemText *label = addEstimatePlotLabel(
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
    useDoublingTicks(plot->xAxis);
    plot->xAxis->setLabel(QCoreApplication::translate("EstimateCharts", "batch size (doublings)"));
    plot->yAxis->setLabel(QCoreApplication::translate("EstimateCharts", "GPU memory (MiB)"));
    const double highest =
        std::max(profile.capacityMib, totals.isEmpty() ? 0.0 : *std::max_element(totals.begin(), totals.end()));
    setEstimatePlotHome(plot, batchRange.lower, batchRange.upper, 0.0, highest * 1.12);
}

void showBreakdown(QCustomPlot *plot, const estimate::EstimateResult &result)
{
    QStringList labels;
    for (const estimate::BatchEstimate &estimate : result.estimates)
        labels << QCoreApplication::translate("EstimateCharts", "batch %1").arg(estimate.batchSize);
    showStackedEstimates(plot,
                         QCoreApplication::translate("EstimateCharts", "Breakdown at the allocated peak on %1")
                             .arg(qtText(result.profile.name)),
                         labels, result.estimates, nullptr);
}

void showStackedEstimates(QCustomPlot *plot, const QString &title, const QStringList &labels,
                          const std::vector<estimate::BatchEstimate> &estimates, const estimate::GpuProfile *capacity)
{
    resetEstimatePlot(plot);
    setEstimatePlotTitle(plot, title);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> positions;
    std::array<QVector<double>, kLayerCount> values;
    double highest = 0.0;
    for (std::size_t index = 0; index < estimates.size(); ++index) {
        const estimate::BatchEstimate &estimate = estimates[index];
        const double position = static_cast<double>(index + 1);
        positions << position;
        ticker->addTick(position, labels.value(static_cast<qsizetype>(index)));
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
        // A layer no bar holds (cuDNN's workspaces for a model without convolutions) would only
        // lengthen the legend.
        if (std::all_of(values[layer].begin(), values[layer].end(), [](double mib) { return mib <= 0.0; }))
            bars->removeFromLegend();
    }
    plot->legend->setVisible(true);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setLabel(QString());
    plot->yAxis->setLabel(QCoreApplication::translate("EstimateCharts", "GPU memory (MiB)"));
    double top = highest * 1.1;
    if (capacity) {
        top = markCapacity(plot, *capacity, highest);
        // Each bar's total above it, coloured by whether it fits: the answer read without the axis.
        for (std::size_t index = 0; index < estimates.size(); ++index) {
            const estimate::BatchEstimate &estimate = estimates[index];
            const bool fits = estimate.fitsOn(*capacity);
            QCPItemText *total = addEstimatePlotLabel(
                plot,
                QCoreApplication::translate("EstimateCharts", "%L1 MiB").arg(estimate.deviceTotalMib(), 0, 'f', 0),
                fits ? QColor(30, 110, 40) : QColor(160, 20, 20));
            total->setObjectName(QStringLiteral("barTotal"));
            total->position->setCoords(static_cast<double>(index + 1), estimate.deviceTotalMib());
            total->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        }
    }
    setEstimatePlotHome(plot, 0.3, static_cast<double>(positions.size()) + 0.7, 0.0, top);
}

void showTimeline(QCustomPlot *plot, const estimate::EstimateResult &result, std::int64_t batchSize)
{
    resetEstimatePlot(plot);
    const auto &timeline = result.timeline;
    if (timeline.empty()) {
        clearEstimatePlot(plot, QCoreApplication::translate("EstimateCharts", "No timeline"));
        return;
    }
    setEstimatePlotTitle(
        plot, QCoreApplication::translate("EstimateCharts",
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
        addEstimatePlotLine(plot, QStringLiteral("phaseMark"), markPen, x, 0.0, x, 1.0);
        QCPItemText *label = addEstimatePlotLabel(
            plot, QStringLiteral("%1 %2").arg(qtText(estimate::phaseName(phase))).arg(step), QColor(40, 40, 40));
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
    setEstimatePlotHome(plot, -0.5, events.back() + 0.5, 0.0, highest * 1.3); // room for the phase labels
}

} // namespace gpumem::ui
