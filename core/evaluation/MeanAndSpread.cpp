// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/MeanAndSpread.h"

#include <cmath>
#include <limits>

namespace gpumem::evaluation {

MeanAndSpread meanAndSpread(const std::vector<double> &values)
{
    MeanAndSpread result;
    if (values.empty()) {
        result.mean = std::numeric_limits<double>::quiet_NaN();
        return result;
    }
    double sum = 0.0;
    for (double value : values)
        sum += value;
    result.mean = sum / static_cast<double>(values.size());
    if (values.size() > 1) {
        double squares = 0.0;
        for (double value : values)
            squares += (value - result.mean) * (value - result.mean);
        result.standardDeviation = std::sqrt(squares / static_cast<double>(values.size() - 1));
    }
    return result;
}

} // namespace gpumem::evaluation
