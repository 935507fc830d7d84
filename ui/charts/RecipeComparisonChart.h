// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

class QCustomPlot;

namespace gpumem::estimate {
struct GpuProfile;
}

namespace gpumem::workflows {
struct RecipeEstimate;
}

namespace gpumem::ui {

// Draws the recipes of a language model's training side by side on a plot made
// ready by prepareEstimatePlot: one stacked bar per recipe (weights, gradients,
// optimizer state, activations, allocator overhead, CUDA context and workspace),
// each named with the parameters it trains, its device total above it, and the
// profile's capacity as a dashed line. The picture of what LoRA, QLoRA and
// gradient checkpointing each take away.
void showRecipeComparison(QCustomPlot *plot, const std::vector<workflows::RecipeEstimate> &recipes,
                          const estimate::GpuProfile &profile);

} // namespace gpumem::ui
