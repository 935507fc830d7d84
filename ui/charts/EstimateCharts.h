// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

class QCustomPlot;

namespace gpumem::estimate {
struct BatchEstimate;
struct EstimateResult;
struct GpuProfile;
} // namespace gpumem::estimate

namespace gpumem::ui {

// The charts of an estimate on the "Your model" page, drawn with QCustomPlot
// (wheel zooms, drag pans, double-click returns to the whole picture) and
// exportable as PNG or SVG from their context menu. Each show function replaces
// what the plot showed; texts follow the plot's font (View ▸ Large font).

// Makes plot ready for the show functions: title row, legend below the axes,
// interactions, export menu.
void prepareEstimatePlot(QCustomPlot *plot, const QString &exportName);

// Device total (what nvidia-smi shows) and peak allocated MiB against the batch
// size, the profile's capacity as a dashed line ("capacityLine") and the
// largest batch that fits as a vertical marker ("maxBatchMarker").
void showMemoryByBatch(QCustomPlot *plot, const estimate::EstimateResult &result);

// One stacked bar per batch size: the categories live at the allocated peak,
// the allocator overhead, and the CUDA context with the library workspace, so
// that each bar is as tall as the device total.
void showBreakdown(QCustomPlot *plot, const estimate::EstimateResult &result);

// One stacked bar per estimate, labelled by labels in the same order, layered as
// showBreakdown's bars. With capacity: its line (a label at the top instead, for a
// card more than three times the tallest bar), and each bar's device total above it
// in green where it fits the capacity, in red where it does not.
void showStackedEstimates(QCustomPlot *plot, const QString &title, const QStringList &labels,
                          const std::vector<estimate::BatchEstimate> &estimates, const estimate::GpuProfile *capacity);

// The replayed timeline of one batch: the live bytes of each category stacked
// over the events, the allocator overhead on top (the top edge is the reserved
// bytes), and a mark where each phase of each step begins.
void showTimeline(QCustomPlot *plot, const estimate::EstimateResult &result, std::int64_t batchSize);

// Empties plot and says why (title: "Memory against batch size: press Estimate") in its middle,
// in place of its axes, until a chart is drawn on it.
void clearEstimatePlot(QCustomPlot *plot, const QString &title);

} // namespace gpumem::ui
