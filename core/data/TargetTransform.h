// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <vector>

namespace gpumem::data {

// Maps the target (MiB) to the scale a model learns on and back: an optional
// log1p, then standardisation with the mean and deviation of the training rows only.
class TargetTransform
{
  public:
    explicit TargetTransform(bool useLog1p = false)
        : mUseLog1p(useLog1p)
    {
    }
    // Restores a fitted transform (e.g. read back with a saved model).
    TargetTransform(bool useLog1p, double mean, double scale)
        : mUseLog1p(useLog1p)
        , mMean(mean)
        , mScale(scale)
    {
    }

    // Learns mean and deviation from trainingRows. Throws io::InputError when
    // log1p is on and a training target is -1 or less.
    void fit(const Eigen::VectorXd &target, const std::vector<Eigen::Index> &trainingRows);

    double forward(double value) const;
    double inverse(double value) const;
    Eigen::VectorXd forward(const Eigen::VectorXd &values) const;
    Eigen::VectorXd inverse(const Eigen::VectorXd &values) const;

    bool usesLog1p() const { return mUseLog1p; }
    double mean() const { return mMean; }
    double scale() const { return mScale; }

  private:
    bool mUseLog1p;
    double mMean = 0.0;
    double mScale = 1.0;
};

} // namespace gpumem::data
