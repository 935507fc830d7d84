// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <vector>

namespace gpumem::data {

// The largest magnitude of a column's mean and scale that a saved model keeps, and
// the inverse of the smallest scale: values standardised by statistics beyond them
// round away to nothing or grow past what a network's float32 inputs hold.
constexpr double maxScalingMagnitude = 1e100;

// Centres and scales each column to zero mean and unit variance, with the
// statistics of the training rows only. Optionally takes log1p first of columns
// whose training values are non-negative and reach above 100 (byte counts,
// parameters, batch sizes), so that values spanning orders of magnitude become
// comparable. Constant columns are centred and left unscaled, so they become zero
// instead of dividing by zero. Values up to the largest double (1e308) give finite
// statistics and finite standardized values: no sum or difference overflows.
class Standardizer
{
  public:
    Standardizer() = default;
    // Restores a fitted standardizer (e.g. read back with a saved model).
    Standardizer(std::vector<bool> logColumns, Eigen::RowVectorXd means, Eigen::RowVectorXd scales);

    void fit(const Eigen::MatrixXd &features, const std::vector<Eigen::Index> &trainingRows,
             bool logWideColumns = false);
    Eigen::MatrixXd transform(const Eigen::MatrixXd &features) const;

    // Whether each column is log1p-transformed before centring.
    const std::vector<bool> &logColumns() const { return mLogColumns; }
    const Eigen::RowVectorXd &means() const { return mMeans; }
    // Population standard deviations (1 for constant columns).
    const Eigen::RowVectorXd &scales() const { return mScales; }

    // Whether mean and scale are statistics a saved model may keep: a finite mean
    // of magnitude at most maxScalingMagnitude and a scale between its inverse and
    // it. Loading a model checks its scalers with it, and the network checks the
    // scalers it fits before it trains, so that every model saved loads.
    static bool isKeepable(double mean, double scale);
    // Returns the first column whose statistics fail isKeepable(), or -1 when none does.
    Eigen::Index firstUnkeepableColumn() const;

  private:
    Eigen::MatrixXd logged(const Eigen::MatrixXd &features) const;

    std::vector<bool> mLogColumns;
    Eigen::RowVectorXd mMeans;
    Eigen::RowVectorXd mScales;
};

// Returns a power of two near the largest magnitude in values (1 when they are
// all zero), so that dividing by it is exact and leaves every value in (-2, 2).
double powerOfTwoScale(const Eigen::Ref<const Eigen::VectorXd> &values);

} // namespace gpumem::data
