// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace gpumem::calibration {

// The training rows of a split divided for split conformal prediction: the model
// fits on `fit`; its residuals on `calibration`, rows it never saw, set the margin.
// Test rows are never part of either. Both lists are sorted ascending.
struct CalibrationRows
{
    std::vector<Eigen::Index> fit;
    std::vector<Eigen::Index> calibration;
};

// Returns trainingRows divided into fit and calibration rows: a seeded shuffle of
// trainingRows (data::shuffledRows) whose first round(size · fraction) rows,
// at least one and leaving one to fit on, calibrate. Only rows of trainingRows
// appear in the result, so a compare fold or a --test-fraction hold-out can never
// leak into the calibration. Throws io::InputError when fraction is not inside
// (0, 1) or there are fewer than 2 training rows. Thread-safe.
CalibrationRows splitCalibrationRows(const std::vector<Eigen::Index> &trainingRows, double fraction,
                                     std::uint64_t seed);

} // namespace gpumem::calibration
