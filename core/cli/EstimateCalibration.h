// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <ostream>
#include <string>

namespace gpumem::cli {

// What `gpumem estimate --calibrate MEASURED.csv` was asked.
struct EstimateCalibrationOptions
{
    std::string measuredPath;              // MEASURED.csv
    std::string gpu;                       // the base profile's name or file
    std::optional<double> contextMib;      // --context-mib: the base profile's context instead of its own
    std::optional<std::string> outputPath; // --out PROFILE.json
    bool json = false;
};

// Fits the --gpu profile's context and workspace to the jobs of the
// measurement file, prints measured against estimated per job before and
// after (text or JSON) and writes the calibrated profile atomically to --out.
// Throws io::InputError for a bad file, model or output; returns the exit code.
int runEstimateCalibration(const EstimateCalibrationOptions &options, std::ostream &out);

// The help text's paragraph on --calibrate and the measurement file's columns.
const char *estimateCalibrationHelp();

} // namespace gpumem::cli
