// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/Json.h"

#include <Eigen/Core>

namespace gpumem::report {

// The JSON form of one value per dataset row (actual values, out-of-fold
// predictions, upper bounds): an array of numbers, null where a row has none (NaN).
io::Json rowValuesJson(const Eigen::VectorXd &values);

// Reads what rowValuesJson() wrote, null as NaN. Throws io::InputError (without a
// file) when it is not an array of numbers and nulls.
Eigen::VectorXd readRowValues(const io::Json &array);

} // namespace gpumem::report
