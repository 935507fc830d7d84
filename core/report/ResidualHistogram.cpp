// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/ResidualHistogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpumem::report {

namespace {

// The smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten that is at least
// reach, so that the axis has round ticks at its ends and halves.
double roundReach(double reach)
{
    const double power = std::pow(10.0, std::floor(std::log10(reach)));
    for (double step : {1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0})
        if (step * power >= reach)
            return step * power;
    return 10.0 * power;
}

} // namespace

ResidualHistogram residualHistogram(const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted)
{
    ResidualHistogram histogram;
    std::vector<double> residuals;
    const Eigen::Index rows = std::min(actual.size(), predicted.size());
    // Charts compute with residuals up to ±1e300, where sums of two stay finite.
    constexpr double edge = 1e300;
    for (Eigen::Index row = 0; row < rows; ++row)
        if (std::isfinite(actual[row]) && std::isfinite(predicted[row]))
            residuals.push_back(std::clamp(predicted[row] - actual[row], -edge, edge));
    histogram.residuals = residuals.size();
    if (residuals.empty())
        return histogram;
    std::vector<double> sizes(residuals.size());
    std::transform(residuals.begin(), residuals.end(), sizes.begin(), [](double value) { return std::abs(value); });
    const auto percentile = sizes.begin() + static_cast<std::ptrdiff_t>(0.98 * static_cast<double>(sizes.size() - 1));
    std::nth_element(sizes.begin(), percentile, sizes.end());
    histogram.reach = roundReach(std::max(*percentile, 1.0));
    const int bins = std::clamp(static_cast<int>(std::sqrt(static_cast<double>(residuals.size()))), 6, 40) / 2 * 2;
    histogram.counts.assign(static_cast<std::size_t>(bins), 0.0);
    const double width = histogram.binWidth();
    for (double residual : residuals) {
        const double position = std::floor((residual + histogram.reach) / width);
        const int bin = static_cast<int>(std::clamp(position, 0.0, static_cast<double>(bins - 1)));
        histogram.counts[static_cast<std::size_t>(bin)] += 1.0;
    }
    return histogram;
}

} // namespace gpumem::report
