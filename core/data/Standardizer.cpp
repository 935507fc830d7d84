#include "data/Standardizer.h"

#include <cmath>
#include <stdexcept>

namespace gpumem::data {

void Standardizer::fit(const Eigen::MatrixXd &features, const std::vector<Eigen::Index> &trainingRows)
{
    if (trainingRows.empty())
        throw std::invalid_argument("Standardizer::fit needs at least one training row");
    const Eigen::Index columns = features.cols();
    mMeans = Eigen::RowVectorXd::Zero(columns);
    for (Eigen::Index row : trainingRows)
        mMeans += features.row(row);
    mMeans /= static_cast<double>(trainingRows.size());
    // Two passes (mean, then squared deviations) stay accurate for large values like byte counts.
    Eigen::RowVectorXd squares = Eigen::RowVectorXd::Zero(columns);
    for (Eigen::Index row : trainingRows)
        squares += (features.row(row) - mMeans).array().square().matrix();
    mScales = (squares / static_cast<double>(trainingRows.size())).array().sqrt().matrix();
    for (Eigen::Index c = 0; c < columns; ++c)
        if (!(mScales[c] > 1e-12 * std::max(1.0, std::fabs(mMeans[c]))))
            mScales[c] = 1.0;
}

Eigen::MatrixXd Standardizer::transform(const Eigen::MatrixXd &features) const
{
    if (features.cols() != mMeans.size())
        throw std::invalid_argument("Standardizer::transform: column count differs from fit");
    return ((features.rowwise() - mMeans).array().rowwise() / mScales.array()).matrix();
}

} // namespace gpumem::data
