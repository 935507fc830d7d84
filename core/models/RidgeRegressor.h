// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/TabularRegressor.h"

namespace gpumem::models {

// Describes ridge regression's hyperparameters at scikit-learn 1.2's defaults (alpha 1, with an intercept).
Hyperparameters ridgeHyperparameters();

// Ridge regression ("ridge"), as scikit-learn's Ridge: least squares with an L2
// penalty alpha on the coefficients (not on the intercept), on the encoded
// features as they are (no scaling). With an intercept, features and target are
// centred first; the coefficients solve (XᵀX + alpha·I) w = Xᵀy by an LDLᵀ
// factorisation, and the intercept is mean(y) - mean(X)·w.
class RidgeRegressor : public TabularRegressor
{
    GPUMEM_REGRESSOR_NAMED(TabularRegressor, "ridge");

  public:
    const Eigen::VectorXd &coefficients() const { return mCoefficients; }
    double intercept() const { return mIntercept; }

  protected:
    GPUMEM_TABULAR_REGRESSOR_OVERRIDES;

  private:
    Eigen::VectorXd mCoefficients;
    double mIntercept = 0.0;
};

} // namespace gpumem::models
