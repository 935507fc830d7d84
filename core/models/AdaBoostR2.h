// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/SeededRandom.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace gpumem::models {

// How AdaBoost.R2 turns an absolute error, divided by the round's largest, into a loss in [0, 1].
enum class AdaBoostLoss
{
    Linear,      // the error itself
    Square,      // its square
    Exponential, // 1 - exp(-error)
};

// Parses "linear", "square" or "exponential"; throws io::InputError otherwise.
AdaBoostLoss parseAdaBoostLoss(const std::string &name);

// What one boosting round of AdaBoost.R2 (Drucker 1997) decided.
struct AdaBoostRoundResult
{
    double error = 0.0;           // the weighted mean loss of the round's estimator
    double estimatorWeight = 0.0; // learning rate × log(1 / beta), with beta = error / (1 - error)
    bool perfect = false;         // error 0: the estimator fits every row, boosting ends (weight 1)
    bool tooWeak = false;         // error ≥ 0.5: the estimator is no better than chance, boosting ends
};

// Scores one estimator from its absolute errors on the training rows and the
// rows' sample weights (summing to 1), as scikit-learn's AdaBoostRegressor:
// rows of weight 0 take no part; the losses are the errors divided by the
// largest, shaped by loss; when updateWeights, each weight is multiplied by
// beta^((1 - loss) × learningRate), so well-predicted rows count less next round
// (the caller normalises them again). Weights are left alone when the round is
// perfect or too weak.
AdaBoostRoundResult adaBoostRound(const Eigen::VectorXd &absoluteErrors, Eigen::VectorXd &sampleWeights,
                                  AdaBoostLoss loss, double learningRate, bool updateWeights);

// Returns the weighted median of values: the smallest value whose cumulative
// weight, in ascending order of value, reaches half of the total weight (the
// first value when every weight is 0). values and weights must have equal, non-zero length.
double weightedMedian(const std::vector<double> &values, const std::vector<double> &weights);

// Draws as many row indices as weights has entries, with replacement, each
// with probability proportional to its weight (weights must have a positive sum).
std::vector<Eigen::Index> weightedResample(const Eigen::VectorXd &weights, data::SeededRandom &random);

} // namespace gpumem::models
