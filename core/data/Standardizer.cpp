// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/Standardizer.h"

#include <cmath>
#include <stdexcept>

namespace gpumem::data {

namespace {
// Columns that reach above this and never go negative are taken to span orders of magnitude.
constexpr double wideColumnThreshold = 100.0;
} // namespace

Standardizer::Standardizer(std::vector<bool> logColumns, Eigen::RowVectorXd means, Eigen::RowVectorXd scales)
    : mLogColumns(std::move(logColumns))
    , mMeans(std::move(means))
    , mScales(std::move(scales))
{
    if (static_cast<Eigen::Index>(mLogColumns.size()) != mMeans.size() || mMeans.size() != mScales.size())
        throw std::invalid_argument("Standardizer: log flags, means and scales differ in length");
}

Eigen::MatrixXd Standardizer::logged(const Eigen::MatrixXd &features) const
{
    Eigen::MatrixXd result = features;
    for (Eigen::Index c = 0; c < result.cols(); ++c)
        if (mLogColumns[static_cast<std::size_t>(c)])
            result.col(c) = result.col(c).array().max(0.0).log1p().matrix();
    return result;
}

void Standardizer::fit(const Eigen::MatrixXd &features, const std::vector<Eigen::Index> &trainingRows,
                       bool logWideColumns)
{
    if (trainingRows.empty())
        throw std::invalid_argument("Standardizer::fit needs at least one training row");
    const Eigen::Index columns = features.cols();
    mLogColumns.assign(static_cast<std::size_t>(columns), false);
    if (logWideColumns) {
        for (Eigen::Index c = 0; c < columns; ++c) {
            double minimum = features(trainingRows.front(), c);
            double maximum = minimum;
            for (Eigen::Index row : trainingRows) {
                minimum = std::min(minimum, features(row, c));
                maximum = std::max(maximum, features(row, c));
            }
            mLogColumns[static_cast<std::size_t>(c)] = minimum >= 0.0 && maximum > wideColumnThreshold;
        }
    }
    const Eigen::MatrixXd values = logged(features);
    mMeans = Eigen::RowVectorXd::Zero(columns);
    mScales = Eigen::RowVectorXd::Zero(columns);
    Eigen::VectorXd column(static_cast<Eigen::Index>(trainingRows.size()));
    for (Eigen::Index c = 0; c < columns; ++c) {
        for (std::size_t i = 0; i < trainingRows.size(); ++i)
            column[static_cast<Eigen::Index>(i)] = values(trainingRows[i], c);
        // Statistics of the column divided by a power of two (exactly) cannot
        // overflow, even for values near the largest double.
        const double unit = powerOfTwoScale(column);
        column /= unit;
        const double mean = column.mean();
        // Two passes (mean, then squared deviations) stay accurate for large values like byte counts.
        const double variance = (column.array() - mean).square().mean();
        mMeans[c] = mean * unit;
        mScales[c] = std::sqrt(variance) * unit;
    }
    for (Eigen::Index c = 0; c < columns; ++c)
        if (!(mScales[c] > 1e-12 * std::max(1.0, std::fabs(mMeans[c]))))
            mScales[c] = 1.0;
}

Eigen::MatrixXd Standardizer::transform(const Eigen::MatrixXd &features) const
{
    if (features.cols() != mMeans.size())
        throw std::invalid_argument("Standardizer::transform: column count differs from fit");
    // Halving both sides first (exact) keeps x - mean finite even for opposite values near the largest double.
    const Eigen::MatrixXd halved = logged(features) * 0.5;
    return (((halved.rowwise() - mMeans * 0.5).array().rowwise() / mScales.array()) * 2.0).matrix();
}

bool Standardizer::isKeepable(double mean, double scale)
{
    return std::isfinite(mean) && std::fabs(mean) <= maxScalingMagnitude && scale >= 1.0 / maxScalingMagnitude &&
           scale <= maxScalingMagnitude;
}

Eigen::Index Standardizer::firstUnkeepableColumn() const
{
    for (Eigen::Index c = 0; c < mMeans.size(); ++c)
        if (!isKeepable(mMeans[c], mScales[c]))
            return c;
    return -1;
}

double powerOfTwoScale(const Eigen::Ref<const Eigen::VectorXd> &values)
{
    const double largest = values.size() == 0 ? 0.0 : values.cwiseAbs().maxCoeff();
    if (!(largest > 0.0) || !std::isfinite(largest))
        return 1.0;
    int exponent = 0;
    std::frexp(largest, &exponent); // largest = m * 2^exponent with m in [0.5, 1)
    // 2^(exponent - 1) is representable even for the largest double, where 2^exponent is not.
    return std::ldexp(1.0, exponent - 1);
}

} // namespace gpumem::data
