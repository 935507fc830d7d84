// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/RegressionTree.h"
#include "models/TabularRegressor.h"

namespace gpumem::models {

// Describes the decision tree's hyperparameters at scikit-learn 1.2's defaults
// (unlimited depth, split nodes of two rows or more, leaves of one row or more).
Hyperparameters decisionTreeHyperparameters();

// One CART regression tree ("decision_tree"), as scikit-learn's DecisionTreeRegressor.
class DecisionTreeRegressor : public TabularRegressor
{
    GPUMEM_REGRESSOR_NAMED(TabularRegressor, "decision_tree");

  public:
    const RegressionTree &tree() const { return mTree; }

  protected:
    GPUMEM_TABULAR_REGRESSOR_OVERRIDES;

  private:
    RegressionTree mTree;
};

} // namespace gpumem::models
