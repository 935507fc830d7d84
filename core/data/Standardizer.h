#pragma once

#include <Eigen/Core>

#include <vector>

namespace gpumem::data {

// Centres and scales each column to zero mean and unit variance, with the
// statistics of the training rows only. Constant columns are centred and left
// unscaled, so they become zero instead of dividing by zero.
class Standardizer
{
  public:
    void fit(const Eigen::MatrixXd &features, const std::vector<Eigen::Index> &trainingRows);
    Eigen::MatrixXd transform(const Eigen::MatrixXd &features) const;

    const Eigen::RowVectorXd &means() const { return mMeans; }
    // Population standard deviations (1 for constant columns).
    const Eigen::RowVectorXd &scales() const { return mScales; }

  private:
    Eigen::RowVectorXd mMeans;
    Eigen::RowVectorXd mScales;
};

} // namespace gpumem::data
