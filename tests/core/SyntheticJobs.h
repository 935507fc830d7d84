// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Synthetic jobs of a known noise law for the calibration tests, and a calibration fitted on them.

#include "calibration/Calibration.h"
#include "calibration/CalibrationRows.h"
#include "data/SeededRandom.h"

#include <Eigen/Core>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::tests {

// Jobs of a known law: y = 1000 + 500 x0 + noise, with the model predicting the
// mean exactly, so the only error is the noise. Homoscedastic noise has a
// standard deviation of 10 MiB; heteroscedastic noise 1 + sqrt(x1), with x1
// spread log-uniformly over 1..1000 (as layer widths and parameter counts are)
// and unrelated to the prediction: a job that is hard for a reason other than its size.
struct SyntheticJobs
{
    Eigen::MatrixXd features;
    std::vector<std::string> names{"size", "hardness"};
    Eigen::VectorXd actual;
    Eigen::VectorXd predicted;
};

inline SyntheticJobs syntheticJobs(Eigen::Index rows, bool heteroscedastic, std::uint64_t seed)
{
    data::SeededRandom random(seed);
    SyntheticJobs jobs;
    jobs.features.resize(rows, 2);
    jobs.actual.resize(rows);
    jobs.predicted.resize(rows);
    for (Eigen::Index row = 0; row < rows; ++row) {
        const double size = random.unit();
        const double hardness = std::exp(random.unit() * std::log(1000.0));
        // Box–Muller: a standard normal draw from two uniform ones.
        const double normal = std::sqrt(-2.0 * std::log(1.0 - random.unit())) * std::cos(2.0 * M_PI * random.unit());
        const double deviation = heteroscedastic ? 1.0 + std::sqrt(hardness) : 10.0;
        jobs.features(row, 0) = size;
        jobs.features(row, 1) = hardness;
        jobs.predicted[row] = 1000.0 + 500.0 * size;
        jobs.actual[row] = jobs.predicted[row] + deviation * normal;
    }
    return jobs;
}

inline std::vector<Eigen::Index> rowRange(Eigen::Index begin, Eigen::Index end)
{
    std::vector<Eigen::Index> rows;
    for (Eigen::Index row = begin; row < end; ++row)
        rows.push_back(row);
    return rows;
}

// A calibration of score at 90% on 200 fit and 200 calibration rows of heteroscedastic jobs.
inline calibration::Calibration fittedCalibration(calibration::Score score)
{
    const SyntheticJobs jobs = syntheticJobs(400, true, 5);
    calibration::CalibrationRows rows{rowRange(0, 200), rowRange(200, 400)};
    return calibration::Calibration::fit(score, jobs.features, jobs.names, jobs.actual, jobs.predicted, rows, 0.9, 5);
}

} // namespace gpumem::tests
