// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/FormulaRegressor.h"

#include "models/AnalyticHyperparameters.h"
#include "models/HyperparameterSpecs.h"
#include "probe/JobConfiguration.h"

namespace gpumem::models {

double FormulaRegressor::estimateBytes(const JobRow &row)
{
    double parameters = 0.0;
    double activations = 0.0;
    for (const auto &layer : row.layers) {
        activations += layer.fields.empty() ? 0.0 : layer.fields[0];
        parameters += layer.fields.size() < 2 ? 0.0 : layer.fields[1];
    }
    const double copies = 2.0 + probe::optimizerStatesPerParameter(row.optimizer);
    return (parameters * copies + activations * row.batchSize) * row.bytesPerElement;
}

double FormulaRegressor::estimateMebibytes(const JobRow &row) const
{
    return estimateBytes(row) / 1048576.0;
}

bool FormulaRegressor::fitsScale() const
{
    return hyperparameters().boolean("fit_scale");
}

Hyperparameters formulaHyperparameters()
{
    return Hyperparameters(
        {assumedOptimizerSpec(),
         booleanSpec("fit_scale", true,
                     "Fit a scale on the estimate as well as the constant overhead (off: scale 1).")});
}

} // namespace gpumem::models
