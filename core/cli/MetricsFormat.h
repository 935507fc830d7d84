#pragma once

#include "evaluation/Metrics.h"
#include "io/JsonWriter.h"

#include <string>

namespace gpumem::cli {

// Writes {"mse", "rmse", "mae", "r2", "mape", "max_error", "under_rate", "over_alloc"}
// with the key names of the comparison report.
void writeMetrics(io::JsonWriter &json, const evaluation::RegressionMetrics &metrics);

// One line for people: "RMSE 18.3 MiB  MAE 11.2 MiB  R² 0.9985  under-predicted 47%  …".
std::string describeMetrics(const evaluation::RegressionMetrics &metrics);

} // namespace gpumem::cli
