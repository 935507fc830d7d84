// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/RegressionTree.h"
#include "models/TabularRegressor.h"

#include <vector>

namespace gpumem::models {

// Describes the random forest's hyperparameters at scikit-learn 1.2's defaults
// (100 fully grown trees on bootstrap samples, every feature tried at each split).
Hyperparameters randomForestHyperparameters();

// A random forest ("random_forest"), as scikit-learn's RandomForestRegressor:
// each tree grows on its own bootstrap sample of the training rows and the
// forest predicts the mean of its trees. ComputeSettings::threads trees grow at
// once; each tree draws from its own seed (the model seed and its index), so the
// forest does not depend on the thread count.
class RandomForestRegressor : public TabularRegressor
{
    GPUMEM_REGRESSOR_NAMED(TabularRegressor, "random_forest");

  public:
    const std::vector<RegressionTree> &trees() const { return mTrees; }

  protected:
    GPUMEM_TABULAR_REGRESSOR_OVERRIDES;

  private:
    RegressionTree growTree(const Eigen::MatrixXd &features, const Eigen::VectorXd &target, int index) const;

    std::vector<RegressionTree> mTrees;
};

} // namespace gpumem::models
