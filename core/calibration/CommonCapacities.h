// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>

namespace gpumem::calibration {

// The memory of common GPUs, GiB, smallest first: the cards a job's bound is
// checked against in `gpumem train`'s report and the Predict page's capacity table.
inline constexpr std::array<double, 8> kCommonCapacitiesGiB = {8, 12, 16, 24, 40, 48, 80, 141};

} // namespace gpumem::calibration
