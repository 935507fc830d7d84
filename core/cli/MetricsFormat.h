// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Metrics.h"

#include <string>

namespace gpumem::cli {

// One line for people: "RMSE 18.3  MAE 11.2  R² 0.99850  …  Under-prediction rate 47.0%  …".
std::string describeMetrics(const evaluation::RegressionMetrics &metrics);

} // namespace gpumem::cli
