#include "data/TargetTransform.h"

#include "io/InputError.h"

#include <cmath>
#include <stdexcept>

namespace gpumem::data {

void TargetTransform::fit(const Eigen::VectorXd &target, const std::vector<Eigen::Index> &trainingRows)
{
    if (trainingRows.empty())
        throw std::invalid_argument("TargetTransform::fit needs at least one training row");
    double sum = 0.0;
    for (Eigen::Index row : trainingRows) {
        if (mUseLog1p && !(target[row] > -1.0))
            throw io::InputError("log1p target transform needs targets above -1, found " + std::to_string(target[row]));
        sum += mUseLog1p ? std::log1p(target[row]) : target[row];
    }
    mMean = sum / static_cast<double>(trainingRows.size());
    double squares = 0.0;
    for (Eigen::Index row : trainingRows) {
        const double deviation = (mUseLog1p ? std::log1p(target[row]) : target[row]) - mMean;
        squares += deviation * deviation;
    }
    mScale = std::sqrt(squares / static_cast<double>(trainingRows.size()));
    if (!(mScale > 0.0))
        mScale = 1.0;
}

double TargetTransform::forward(double value) const
{
    return ((mUseLog1p ? std::log1p(value) : value) - mMean) / mScale;
}

double TargetTransform::inverse(double value) const
{
    const double unscaled = value * mScale + mMean;
    return mUseLog1p ? std::expm1(unscaled) : unscaled;
}

Eigen::VectorXd TargetTransform::forward(const Eigen::VectorXd &values) const
{
    return values.unaryExpr([this](double value) { return forward(value); });
}

Eigen::VectorXd TargetTransform::inverse(const Eigen::VectorXd &values) const
{
    return values.unaryExpr([this](double value) { return inverse(value); });
}

} // namespace gpumem::data
