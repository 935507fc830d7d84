// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/RegressionTree.h"
#include "models/TabularRegressor.h"

#include <vector>

namespace gpumem::models {

// Describes AdaBoost's hyperparameters at scikit-learn 1.2's defaults (50
// rounds, learning rate 1, linear loss) with trees of depth 3 as its estimators.
Hyperparameters adaBoostHyperparameters();

// AdaBoost.R2 ("adaboost"), as scikit-learn's AdaBoostRegressor: each round grows
// a tree on a resample of the training rows drawn by their weights, scores it,
// and raises the weights of the rows it predicts worst; the prediction is the
// weighted median of the trees' predictions. Boosting ends early when a tree is
// perfect or no better than chance (see adaBoostRound()).
class AdaBoostRegressor : public TabularRegressor
{
    GPUMEM_REGRESSOR_NAMED(TabularRegressor, "adaboost");

  public:
    const std::vector<RegressionTree> &trees() const { return mTrees; }
    // The weight of each tree in the median.
    const std::vector<double> &treeWeights() const { return mTreeWeights; }

  protected:
    GPUMEM_TABULAR_REGRESSOR_OVERRIDES;

  private:
    std::vector<RegressionTree> mTrees;
    std::vector<double> mTreeWeights;
};

} // namespace gpumem::models
