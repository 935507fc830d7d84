// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"

#include <Eigen/Core>

#include <cstddef>
#include <string>
#include <vector>

namespace gpumem::evaluation {

// Answers about a finished comparison that every view of it asks, so the
// reports, the command line and the workbench agree on them.

// Returns whether model's mean of metric is the best among result's models, at
// the precision formatMetric() shows, so that models tied there are all best.
// False for a NaN mean and for metrics that crown no best.
bool isBestModel(const ExperimentResult &result, const ModelResult &model, const MetricDescription &metric);

// One job a model predicted below its real need: an out-of-memory crash for a
// scheduler that reserved the prediction.
struct UnderPrediction
{
    std::size_t model = 0; // index into ExperimentResult::models
    Eigen::Index row = 0;  // dataset row
    double actual = 0.0;   // MiB
    double predicted = 0.0;
    double shortfall() const { return actual - predicted; }
};

// Returns up to perModel of each model's largest under-predictions among its
// out-of-fold predictions, models in result order, each model's worst first.
std::vector<UnderPrediction> worstUnderPredictions(const ExperimentResult &result, std::size_t perModel);

} // namespace gpumem::evaluation
