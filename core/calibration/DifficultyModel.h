// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <string>
#include <vector>

namespace gpumem::calibration {

// An estimate of how far a model's prediction may miss a job, fitted on residuals
// of rows that are neither the model's fit rows nor the rows that calibrate the
// margin. It is a ridge regression of log(1 + |actual - predicted|) (MiB) on the
// job's own memory beyond the smallest job seen, log(1 + max(predicted - floor, 0)),
// and on log(1 + |x|) of every numeric feature, all standardised on the rows it
// was fitted on. The scale of a row, exp of that estimate, divides its residual:
// jobs that are hard to predict (large ones, but also e.g. deep or wide ones of
// the same size) get wider margins, easy ones narrower. A plain value type.
class DifficultyModel
{
  public:
    // The ridge penalty on standardised inputs: strong enough that a few hundred
    // rows cannot chase noise, weak enough that the size term keeps its slope.
    static constexpr double ridgePenalty = 10.0;

    // Fits on rows of features (rows × featureNames.size()), actual and predicted
    // values. floor is the smallest target among the model's fit rows. Throws
    // io::InputError when rows is empty or a value is not finite.
    static DifficultyModel fit(const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                               const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted,
                               const std::vector<Eigen::Index> &rows, double floor);

    // Returns the scale (> 0, MiB) of every row. features must hold the columns
    // the model was fitted with (found by name, in any order); throws io::InputError otherwise.
    Eigen::VectorXd scales(const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                           const Eigen::VectorXd &predicted) const;

    // The fitted state, as model.json stores it. inputs are the size term then one
    // per column; coefficients are the intercept then one per input. The log-scale
    // estimate is clamped to [lowest, highest]: from the lower quartile of what the
    // fit rows produced (an underestimated difficulty would inflate the top scores)
    // to one unit above their largest, so that an unusual job cannot get an absurd margin.
    double floor = 0.0;
    std::vector<std::string> columns;
    std::vector<double> means;
    std::vector<double> deviations;
    std::vector<double> coefficients;
    double lowest = 0.0;
    double highest = 0.0;

    friend bool operator==(const DifficultyModel &left, const DifficultyModel &right);
};

} // namespace gpumem::calibration
