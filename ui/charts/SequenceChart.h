// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

class QCustomPlot;

namespace gpumem::estimate {
struct GpuProfile;
}

namespace gpumem::workflows {
struct SequencePoint;
}

namespace gpumem::ui {

// The sequence lengths the chart of memory against the sequence length samples for
// a model of longest positions: 8 lengths spaced evenly in doublings from 128 (or
// longest, if shorter) to longest or 8192, whichever is less, in increasing order.
std::vector<std::int64_t> chartedSequenceLengths(std::int64_t longest);

// Draws a language model's device total (what nvidia-smi shows) against the sequence
// length, one line per batch size, on a plot made ready by prepareEstimatePlot: the
// profile's capacity as markCapacity marks it, and chosenLength (the form's) as a dotted
// marker ("sequenceMarker"). The x axis is in doublings of tokens.
void showMemoryBySequence(QCustomPlot *plot, const std::vector<workflows::SequencePoint> &points,
                          const estimate::GpuProfile &profile, std::int64_t chosenLength);

} // namespace gpumem::ui
