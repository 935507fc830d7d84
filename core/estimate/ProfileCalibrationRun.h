// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/GpuProfile.h"
#include "estimate/MeasuredJobsFile.h"
#include "estimate/ProfileCalibration.h"

#include <cstddef>
#include <string>
#include <vector>

namespace gpumem::estimate {

// One measured job against the estimate, in MiB: the replay's reserved peak,
// and the prediction of the measurement with the base and the fitted constants.
struct CalibratedJob
{
    MeasuredJob job;
    double simulatedReservedMib = 0.0;
    bool runsMatrixProducts = true;
    double beforeMib = 0.0;
    double afterMib = 0.0;
};

// The jobs, the fit and the profile it makes.
struct ProfileCalibrationResult
{
    std::vector<CalibratedJob> jobs;
    ProfileFit fit;
    GpuProfile profile;
    std::size_t tracedConfigurations = 0; // model, input and optimizer combinations traced
    std::vector<std::string> notes;
};

// Estimates every measured job (one estimator run per model, input and
// optimizer, so the batch sizes of one model share one pair of traces), fits
// base's constants to the measurements (see fitProfileConstants) and builds
// the calibrated profile (see calibratedProfile). calibrationFile names the
// measurement file in messages and in the profile's source; date is its day.
// Throws io::InputError located at the row whose model fails, or when a
// measurement exceeds the card's capacity.
ProfileCalibrationResult calibrateProfile(const std::vector<MeasuredJob> &jobs, const GpuProfile &base,
                                          const std::string &calibrationFile, const std::string &date);

} // namespace gpumem::estimate
