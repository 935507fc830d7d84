// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/TargetTransform.h"

#include "data/Standardizer.h"
#include "io/InputError.h"
#include "io/NumberText.h"

#include <cmath>
#include <stdexcept>

namespace gpumem::data {

void TargetTransform::fit(const Eigen::VectorXd &target, const std::vector<Eigen::Index> &trainingRows)
{
    if (trainingRows.empty())
        throw std::invalid_argument("TargetTransform::fit needs at least one training row");
    Eigen::VectorXd values(static_cast<Eigen::Index>(trainingRows.size()));
    for (std::size_t i = 0; i < trainingRows.size(); ++i) {
        const double value = target[trainingRows[i]];
        if (mUseLog1p && !(value > -1.0))
            throw io::InputError("log1p target transform needs targets above -1, found " + std::to_string(value));
        values[static_cast<Eigen::Index>(i)] = mUseLog1p ? std::log1p(value) : value;
    }
    // Divided by a power of two (exactly), sums of targets near 1e308 stay finite.
    const double unit = powerOfTwoScale(values);
    values /= unit;
    const double mean = values.mean();
    mMean = mean * unit;
    mScale = std::sqrt((values.array() - mean).square().mean()) * unit;
    if (!(mScale > 0.0))
        mScale = 1.0;
}

double TargetTransform::forward(double value) const
{
    // Halved first (exactly) so that value - mean cannot overflow.
    return ((mUseLog1p ? std::log1p(value) : value) * 0.5 - mMean * 0.5) / mScale * 2.0;
}

double TargetTransform::inverse(double value) const
{
    const double unscaled = value * mScale + mMean;
    return mUseLog1p ? std::expm1(unscaled) : unscaled;
}

std::string TargetTransform::flaw() const
{
    if (!std::isfinite(mMean))
        return "has a mean that is not finite";
    if (!(mScale >= minScale))
        return "has a scale below " + io::formattedNumber("%g", minScale) +
               ", which would scale the targets to infinite values";
    // Finite, not merely small: targets from 0.1 MiB to tens of GiB in one file
    // (CPU-probed and GPU jobs) reach 1e20 MiB at 8 deviations in log1p space,
    // and the network learns them all the same.
    if (!std::isfinite(inverse(checkedDeviations)) || !std::isfinite(inverse(-checkedDeviations)))
        return "would predict infinite values " + io::formattedNumber("%g", checkedDeviations) +
               " deviations from its mean";
    return {};
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
