// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/GpuProfile.h"
#include "estimate/ProfileCalibrationRun.h"
#include "io/Json.h"

#include <optional>
#include <string>
#include <vector>

namespace gpumem::workflows {

// What a GPU profile's calibration is asked (`gpumem estimate --calibrate`): the
// jobs measured on a card, the profile whose context and workspace they fit, and
// where the calibrated profile goes.
struct CalibrateProfileConfiguration
{
    std::string measuredPath;              // the measured jobs (estimate/MeasuredJobsFile.h)
    std::string gpu = "a100-80";           // the base profile's name or file
    std::optional<double> contextMib;      // the base profile's context instead of its own
    std::optional<std::string> outputPath; // the calibrated profile's file (JSON), written atomically
    std::string date;                      // the day the profile's source names, YYYY-MM-DD; empty: today (UTC)
};

// A finished calibration: the profile it started from, every job measured against
// the estimate before and after, the fit and the calibrated profile, and the notes
// of the fit and the run, each on one line.
struct CalibrateProfileResult
{
    estimate::GpuProfile base;
    estimate::ProfileCalibrationResult calibration;
    std::vector<std::string> notes;
    bool written = false; // the calibrated profile is in configuration.outputPath
};

// Reads configuration's measured jobs, traces every model, input and optimizer
// once on the CPU, fits the base profile's context and workspace to the
// measurements (estimate::calibrateProfile) and writes the calibrated profile
// to outputPath when given. Before any trace it refuses an output that would
// replace the measurements, a model or the base profile; the profile is read
// back before it is written, so a file --gpu would refuse is never written.
// Throws io::InputError for a bad file, model, profile or output. Runs on the calling thread.
CalibrateProfileResult calibrateProfile(const CalibrateProfileConfiguration &configuration);

// Returns the document `gpumem estimate --calibrate --json` prints for result, the
// calibration configuration asked for: each job measured against the estimate
// before and after, the constants before and after with their residuals, the
// calibrated profile, the file it was written to (null when none) and the notes.
io::Json calibrationJson(const CalibrateProfileConfiguration &configuration, const CalibrateProfileResult &result);

} // namespace gpumem::workflows
