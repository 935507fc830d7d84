// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/AnalyticRegressor.h"

namespace gpumem::models {

// The plain analytic estimate people write on the back of an envelope:
// parameters × (weights + gradients + optimizer states) × bytes per element +
// activations × batch size × bytes per element, where activations are the
// per-sample outputs of every layer (the layer sequence's second field) and
// optimizer states are 0 (sgd), 1 (sgd_momentum) or 2 (adam, adamw). Fitting
// calibrates a constant (the CUDA context) and, unless fit_scale is off, a
// scale. Shows what a learned model adds over arithmetic.
class FormulaRegressor : public AnalyticRegressor
{
    GPUMEM_REGRESSOR_NAMED(AnalyticRegressor, "formula");

  public:
    // The estimate of one job in bytes, before calibration.
    static double estimateBytes(const JobRow &row);

  protected:
    double estimateMebibytes(const JobRow &row) const override;
    bool fitsScale() const override;
};

// The formula model's hyperparameters at their defaults.
Hyperparameters formulaHyperparameters();

} // namespace gpumem::models
