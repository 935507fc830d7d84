// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

namespace gpumem::evaluation {

// The mean of some measurements and their sample standard deviation.
struct MeanAndSpread
{
    double mean = 0.0;              // NaN for no measurement
    double standardDeviation = 0.0; // 0 for fewer than two
};

// Returns the mean and sample standard deviation of values. Thread-safe.
MeanAndSpread meanAndSpread(const std::vector<double> &values);

} // namespace gpumem::evaluation
