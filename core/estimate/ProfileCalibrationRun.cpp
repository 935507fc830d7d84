// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ProfileCalibrationRun.h"

#include "estimate/MemoryEstimator.h"
#include "estimate/MemoryUnits.h"
#include "estimate/ModelTracer.h"
#include "io/InputError.h"

#include <filesystem>

namespace gpumem::estimate {

namespace {

// Whether two jobs train the same model the same way, so that one estimator
// run (one pair of traces) serves both batch sizes.
bool sameTraining(const EstimateConfiguration &a, const EstimateConfiguration &b)
{
    return a.modelPath == b.modelPath && a.inputShapes == b.inputShapes && a.inputKind == b.inputKind &&
           a.vocabulary == b.vocabulary && a.optimizer == b.optimizer &&
           a.optimizerImplementation == b.optimizerImplementation && a.attention == b.attention && a.dtype == b.dtype &&
           a.loss == b.loss && a.classes == b.classes && a.steps == b.steps;
}

} // namespace

ProfileCalibrationResult calibrateProfile(const std::vector<MeasuredJob> &jobs, const GpuProfile &base,
                                          const std::string &calibrationFile, const std::string &date)
{
    // Checked before any trace runs: a reading above the card's capacity means another card's profile.
    for (const auto &job : jobs)
        if (job.measuredMib > base.capacityMib)
            throw io::InputError(calibrationFile, job.line, job.measuredColumn,
                                 "measured_mib: " + mibText(job.measuredMib) + " MiB is more than " + base.name +
                                     " holds (" + mibText(base.capacityMib) + " MiB); give " + io::parameter("gpu") +
                                     " the profile of the card that was measured");

    ProfileCalibrationResult calibration;
    calibration.jobs.resize(jobs.size());
    std::vector<bool> done(jobs.size(), false);
    for (std::size_t first = 0; first < jobs.size(); ++first) {
        if (done[first])
            continue;
        std::vector<std::size_t> group;
        EstimateRequest request;
        for (std::size_t i = first; i < jobs.size(); ++i)
            if (!done[i] && sameTraining(jobs[i].configuration, jobs[first].configuration)) {
                group.push_back(i);
                request.batchSizes.push_back(jobs[i].batchSize);
                done[i] = true;
            }
        const MeasuredJob &row = jobs[first];
        EstimateResult result;
        try {
            const ModelTracer tracer(row.configuration);
            result = MemoryEstimator::estimate(tracer, base, request);
        } catch (const io::InputError &error) {
            // The model's own message, placed at the first row that asked for it.
            throw io::InputError(calibrationFile, row.line, row.modelColumn, error.markedWhat());
        }
        ++calibration.tracedConfigurations;
        for (const auto &note : result.notes)
            calibration.notes.push_back(std::filesystem::path(row.configuration.modelPath).filename().string() +
                                        " (line " + std::to_string(row.line) + "): " + note);
        for (std::size_t k = 0; k < group.size(); ++k) {
            CalibratedJob &calibrated = calibration.jobs[group[k]];
            calibrated.job = jobs[group[k]];
            calibrated.simulatedReservedMib = mibOf(result.estimates[k].peakReservedBytes);
            calibrated.runsMatrixProducts = result.estimates[k].runsMatrixProducts;
        }
    }

    std::vector<CalibrationPoint> points;
    std::size_t deviceRows = 0;
    for (const auto &calibrated : calibration.jobs) {
        points.push_back({calibrated.simulatedReservedMib, calibrated.job.measuredMib, calibrated.job.quantity,
                          calibrated.runsMatrixProducts});
        deviceRows += calibrated.job.quantity == MeasuredQuantity::DeviceTotal ? 1 : 0;
    }
    const ProfileConstants before{base.contextMib, base.workspaceMib, base.cublasContextMib};
    calibration.fit = fitProfileConstants(points, before);
    calibration.profile =
        calibratedProfile(base, calibration.fit, calibrationFile, date, deviceRows, points.size() - deviceRows);
    const ProfileConstants after{calibration.profile.contextMib, calibration.profile.workspaceMib,
                                 calibration.profile.cublasContextMib};
    for (std::size_t i = 0; i < points.size(); ++i) {
        calibration.jobs[i].beforeMib = predictedMib(points[i], before);
        calibration.jobs[i].afterMib = predictedMib(points[i], after);
    }
    return calibration;
}

} // namespace gpumem::estimate
