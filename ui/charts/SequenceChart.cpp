// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/SequenceChart.h"

#include "estimate/GpuProfile.h"
#include "ui/charts/EstimatePlotParts.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/widgets/QtText.h"
#include "workflows/LanguageModelEstimates.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace gpumem::ui {

namespace {

constexpr std::int64_t kShortestCharted = 128;
constexpr std::int64_t kLongestCharted = 8192;
constexpr int kChartedLengths = 8;

QString translated(const char *text)
{
    return QCoreApplication::translate("SequenceChart", text);
}

// One colour per batch size, in the order of the batch sizes; they repeat beyond the tenth.
QColor lineColour(std::size_t index)
{
    static const std::array<QColor, 10> colours = {
        QColor(31, 119, 180),  QColor(255, 127, 14),  QColor(44, 160, 44),  QColor(148, 103, 189), QColor(140, 86, 75),
        QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34), QColor(23, 190, 207),  QColor(214, 39, 40)};
    return colours[index % colours.size()];
}

} // namespace

std::vector<std::int64_t> chartedSequenceLengths(std::int64_t longest)
{
    if (longest < 1)
        return {};
    const std::int64_t last = std::min(longest, kLongestCharted);
    const std::int64_t first = std::min(kShortestCharted, last);
    std::vector<std::int64_t> lengths;
    // Evenly spaced in doublings, as the axis shows them; rounding may make neighbours equal.
    const double ratio = static_cast<double>(last) / static_cast<double>(first);
    for (int i = 0; i < kChartedLengths; ++i) {
        const double share = static_cast<double>(i) / static_cast<double>(kChartedLengths - 1);
        const auto length =
            static_cast<std::int64_t>(std::llround(static_cast<double>(first) * std::pow(ratio, share)));
        if (lengths.empty() || length > lengths.back())
            lengths.push_back(std::min(length, last));
    }
    return lengths;
}

void showMemoryBySequence(QCustomPlot *plot, const std::vector<workflows::SequencePoint> &points,
                          const estimate::GpuProfile &profile, std::int64_t chosenLength)
{
    resetEstimatePlot(plot);
    setEstimatePlotTitle(plot, translated("GPU memory against sequence length on %1").arg(qtText(profile.name)));
    // One line per batch size, in the order the batch sizes were asked.
    std::vector<std::int64_t> batches;
    std::map<std::int64_t, std::pair<QVector<double>, QVector<double>>> lines;
    double shortest = static_cast<double>(chosenLength);
    double longest = static_cast<double>(chosenLength);
    double highest = 0.0;
    for (const workflows::SequencePoint &point : points) {
        if (lines.find(point.batchSize) == lines.end())
            batches.push_back(point.batchSize);
        auto &[lengths, totals] = lines[point.batchSize];
        lengths << static_cast<double>(point.sequenceLength);
        totals << point.deviceTotalMib;
        shortest = std::min(shortest, static_cast<double>(point.sequenceLength));
        longest = std::max(longest, static_cast<double>(point.sequenceLength));
        highest = std::max(highest, point.deviceTotalMib);
    }
    for (std::size_t index = 0; index < batches.size(); ++index) {
        const auto &[lengths, totals] = lines[batches[index]];
        QCPGraph *graph = plot->addGraph();
        graph->setObjectName(QStringLiteral("sequenceLine"));
        graph->setName(translated("batch %1").arg(batches[index]));
        graph->setPen(QPen(lineColour(index), 2.0));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
        graph->setData(lengths, totals, true);
    }
    plot->legend->setVisible(!batches.empty());
    // Memory rises with the sequence: the lines leave the left end free for the label.
    const double top = markCapacity(plot, profile, highest, true);

    const double lower = std::max(1.0, shortest / 1.25);
    const double upper = longest * 1.25;
    if (chosenLength > 0) {
        const auto chosen = static_cast<double>(chosenLength);
        const QColor markerColour(60, 60, 60);
        addEstimatePlotLine(plot, QStringLiteral("sequenceMarker"), QPen(markerColour, 1.5, Qt::DotLine), chosen, 0.0,
                            chosen, 1.0);
        QCPItemText *label =
            addEstimatePlotLabel(plot, translated("chosen: %L1 tokens").arg(chosenLength), markerColour);
        label->setObjectName(QStringLiteral("sequenceLabel"));
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(chosen, 0.1); // below a capacity label at the top
        // Right of the marker unless the marker stands near the right edge.
        const bool atRight = std::log(chosen / lower) >= 0.7 * std::log(upper / lower);
        label->setPositionAlignment((atRight ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    }
    useDoublingTicks(plot->xAxis);
    plot->xAxis->setLabel(translated("sequence length (tokens, doublings)"));
    plot->yAxis->setLabel(translated("GPU memory (MiB)"));
    setEstimatePlotHome(plot, lower, upper, 0.0, top);
}

} // namespace gpumem::ui
