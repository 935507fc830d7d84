// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <string>
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

    // Returns why the transform cannot serve predictions, or an empty string: a
    // mean that is not finite, a scale below minScale, which would scale targets
    // (and a loss threshold divided by the scale) to infinite values, or a
    // transform that maps checkedDeviations deviations from the mean back to
    // infinite MiB. Loading a model checks its transform with it, and the network
    // checks the one it fits before it trains, so that every model saved loads.
    std::string flaw() const;

    // The smallest scale flaw() accepts.
    static constexpr double minScale = 1e-100;
    // How far from the mean, in deviations, flaw() requires finite predictions: a
    // trained model's scaled outputs stay within a few deviations of the training targets.
    static constexpr double checkedDeviations = 8.0;

    bool usesLog1p() const { return mUseLog1p; }
    double mean() const { return mMean; }
    double scale() const { return mScale; }

  private:
    bool mUseLog1p;
    double mMean = 0.0;
    double mScale = 1.0;
};

} // namespace gpumem::data
