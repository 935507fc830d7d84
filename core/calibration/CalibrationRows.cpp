// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/CalibrationRows.h"

#include "data/SeededRandom.h"
#include "io/InputError.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace gpumem::calibration {

CalibrationRows splitCalibrationRows(const std::vector<Eigen::Index> &trainingRows, double fraction, std::uint64_t seed)
{
    if (!(fraction > 0.0 && fraction < 1.0))
        throw io::InputError("the calibration fraction must be strictly between 0 and 1, not " +
                             std::to_string(fraction));
    const auto count = static_cast<Eigen::Index>(trainingRows.size());
    if (count < 2)
        throw io::InputError("calibrating needs at least 2 training rows, one to fit on and one to calibrate on; "
                             "there are " +
                             std::to_string(count));
    // A seed of its own, so the calibration rows differ from the rows a --test-fraction
    // hold-out with the same seed would pick from the whole file.
    const std::vector<Eigen::Index> order = data::shuffledRows(count, seed ^ 0x63616c6962726174ull);
    const auto wanted = static_cast<Eigen::Index>(std::llround(static_cast<double>(count) * fraction));
    const Eigen::Index calibrationCount = std::clamp<Eigen::Index>(wanted, 1, count - 1);
    CalibrationRows rows;
    for (Eigen::Index position = 0; position < count; ++position) {
        const Eigen::Index row = trainingRows[static_cast<std::size_t>(order[static_cast<std::size_t>(position)])];
        (position < calibrationCount ? rows.calibration : rows.fit).push_back(row);
    }
    std::sort(rows.fit.begin(), rows.fit.end());
    std::sort(rows.calibration.begin(), rows.calibration.end());
    return rows;
}

} // namespace gpumem::calibration
