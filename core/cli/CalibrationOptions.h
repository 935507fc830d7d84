// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/CalibratedFit.h"

#include <cstdint>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace gpumem::cli {

// The options of a calibrated upper bound, shared by train and compare.
struct CalibrationOptions
{
    std::optional<double> coverage;   // --coverage C, strictly between 0 and 1
    std::optional<double> fraction;   // --calibration-fraction F, in (0, 1)
    std::optional<std::string> score; // --calibration-score absolute|relative|difficulty|spread
};

// What the calibration calibrates: one model (train) or each fold's fit (compare);
// only the help text differs.
enum class CalibrationScope
{
    Model,
    EachFold
};

// Declares --coverage, --calibration-fraction and --calibration-score on app, bound to options.
void addCalibrationOptions(CLI::App &app, CalibrationOptions &options, CalibrationScope scope);

// Returns the calibration --coverage asks for, seeded with seed (as train and
// compare both seed it, so both set the same rows aside), or nothing without
// --coverage. Throws io::InputError for --calibration-fraction 0, and for the
// other calibration options given without --coverage.
std::optional<calibration::CalibrationSettings> calibrationSettingsFrom(const CalibrationOptions &options,
                                                                        std::uint64_t seed);

} // namespace gpumem::cli
