// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/TabularRegressor.h"

#include <memory>

namespace gpumem::models {

// Describes XGBoost's hyperparameters at xgboost 1.7's defaults for XGBRegressor
// (100 rounds, depth 6, learning rate 0.3, L2 penalty 1, tree method chosen by
// the library: exact on data of this size).
Hyperparameters xgboostHyperparameters();

// Gradient-boosted trees ("xgboost") through libxgboost's C API, with the
// squared-error objective. Threads and seed come from ComputeSettings. The
// booster is saved as booster.json in the model folder. Only in builds with
// GPUMEM_WITH_XGBOOST (see ModelsConfig.h); elsewhere the registry leaves it out.
class XGBoostRegressor : public TabularRegressor
{
    GPUMEM_REGRESSOR_NAMED(TabularRegressor, "xgboost");

  public:
  protected:
    GPUMEM_TABULAR_REGRESSOR_OVERRIDES;

  private:
    // The library's booster handle, freed with the model.
    std::shared_ptr<void> mBooster;
    Eigen::Index mFeatureCount = 0;
    int mRounds = 0;
};

} // namespace gpumem::models
