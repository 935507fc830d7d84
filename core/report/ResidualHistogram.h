// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <vector>

namespace gpumem::report {

// The residuals (predicted − actual, MiB) of one model's out-of-fold predictions, counted
// in bins of equal width over [-reach, reach]: the bins left of zero are under-predictions.
struct ResidualHistogram
{
    double reach = 0.0;         // a round number: the axis runs from -reach to reach
    std::vector<double> counts; // jobs per bin, left to right; an even count, so zero is a bin edge
    std::size_t residuals = 0;  // the rows counted (both finite)
    double binWidth() const { return counts.empty() ? 0.0 : 2.0 * reach / static_cast<double>(counts.size()); }
};

// Counts the residuals of the rows where both values are finite. The reach is the 98th
// percentile of the residuals' size rounded up to a round number (one far outlier would
// otherwise squeeze every other job into the two bars beside zero); residuals beyond it
// count in the outermost bins. About √n bins, from 6 to 40. No rows: no bins.
ResidualHistogram residualHistogram(const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted);

} // namespace gpumem::report
