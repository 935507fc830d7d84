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
    for (Eigen::Index row : trainingRows)
        mMeans += values.row(row);
    mMeans /= static_cast<double>(trainingRows.size());
    // Two passes (mean, then squared deviations) stay accurate for large values like byte counts.
    Eigen::RowVectorXd squares = Eigen::RowVectorXd::Zero(columns);
    for (Eigen::Index row : trainingRows)
        squares += (values.row(row) - mMeans).array().square().matrix();
    mScales = (squares / static_cast<double>(trainingRows.size())).array().sqrt().matrix();
    for (Eigen::Index c = 0; c < columns; ++c)
        if (!(mScales[c] > 1e-12 * std::max(1.0, std::fabs(mMeans[c]))))
            mScales[c] = 1.0;
}

Eigen::MatrixXd Standardizer::transform(const Eigen::MatrixXd &features) const
{
    if (features.cols() != mMeans.size())
        throw std::invalid_argument("Standardizer::transform: column count differs from fit");
    return ((logged(features).rowwise() - mMeans).array().rowwise() / mScales.array()).matrix();
}

} // namespace gpumem::data
