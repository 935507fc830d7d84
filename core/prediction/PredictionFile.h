// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace gpumem::prediction {

// Returns the CSV text of a prediction file: one row per row of the input file
// (tableRows of them), in order, with `prediction`, then `upper_bound` when
// upperBounds is not empty (one per dataset row: the calibrated request), then
// `actual` and `error` (prediction - actual) when dataset has the target, then
// `split` when splits are given (one label per dataset row), then `extrapolated`
// when extrapolated is given (per dataset row: what lies outside the training
// data, in words, or empty; see Predictions::extrapolations). usableRows maps
// dataset rows to file rows; rows the bad-cell policy left out keep their place
// with empty cells.
std::string predictionCsv(std::size_t tableRows, const std::vector<std::size_t> &usableRows,
                          const data::Dataset &dataset, const Eigen::VectorXd &predicted,
                          const std::vector<std::string> &splits = {}, const Eigen::VectorXd &upperBounds = {},
                          const std::vector<std::string> &extrapolated = {});

} // namespace gpumem::prediction
