// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/Hyperparameters.h"

namespace gpumem::models {

// The optimizer the analytic models assume for rows that do not name one
// (GPUMemNet-style MLP rows): a choice of sgd, sgd_momentum, adam, adamw.
HyperparameterSpec assumedOptimizerSpec();

} // namespace gpumem::models
