// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/CalibrateProfileWorkflow.h"

#include "estimate/MeasuredJobsFile.h"
#include "estimate/MemoryUnits.h"
#include "io/AtomicFileWriter.h"
#include "io/OutputPlan.h"
#include "runtime/ThreadSettings.h"

#include <ctime>

namespace gpumem::workflows {

namespace {

std::string todayUtc()
{
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &parts);
    return text;
}

// Refuses, before the traces run, a profile file that would replace the
// measurements, a model or the base profile.
void checkOutput(const CalibrateProfileConfiguration &configuration, const std::vector<estimate::MeasuredJob> &jobs)
{
    io::OutputPlan outputs;
    outputs.addInput(configuration.measuredPath, "MEASURED.csv");
    for (const auto &job : jobs)
        outputs.addInput(job.configuration.modelPath, "MEASURED.csv's model");
    if (const std::string profileFile = estimate::gpuProfileFile(configuration.gpu); !profileFile.empty())
        outputs.addInput(profileFile, "--gpu");
    outputs.addOutputFile(*configuration.outputPath, "--out");
    outputs.check();
}

} // namespace

CalibrateProfileResult calibrateProfile(const CalibrateProfileConfiguration &configuration)
{
    // The traced steps run on one thread, as every estimate's do.
    runtime::setComputeThreads(1);
    CalibrateProfileResult result;
    result.base = estimate::findGpuProfile(configuration.gpu);
    if (configuration.contextMib)
        result.base = estimate::withContextMib(result.base, *configuration.contextMib);
    const std::vector<estimate::MeasuredJob> jobs = estimate::readMeasuredJobs(configuration.measuredPath);
    if (configuration.outputPath)
        checkOutput(configuration, jobs);
    result.calibration = estimate::calibrateProfile(jobs, result.base, configuration.measuredPath,
                                                    configuration.date.empty() ? todayUtc() : configuration.date);
    if (configuration.outputPath) {
        // Read back before it replaces anything: a profile that --gpu would refuse is never written.
        const std::string text = estimate::gpuProfileJson(result.calibration.profile);
        estimate::parseGpuProfile(text, *configuration.outputPath);
        io::writeFileAtomically(*configuration.outputPath, text);
        result.written = true;
    }
    result.notes = result.calibration.fit.notes;
    result.notes.insert(result.notes.end(), result.calibration.notes.begin(), result.calibration.notes.end());
    return result;
}

io::Json calibrationJson(const CalibrateProfileConfiguration &configuration, const CalibrateProfileResult &result)
{
    const estimate::GpuProfile &base = result.base;
    const estimate::ProfileCalibrationResult &calibration = result.calibration;
    io::Json jobs = io::Json::array();
    for (const auto &calibrated : calibration.jobs) {
        const auto &job = calibrated.job;
        jobs.push_back({{"line", job.line},
                        {"model", job.configuration.modelPath},
                        {"batch_size", job.batchSize},
                        {"optimizer", job.configuration.optimizer},
                        {"measured_by", std::string(estimate::measuredQuantityName(job.quantity))},
                        {"measured_mib", job.measuredMib},
                        {"simulated_reserved_mib", estimate::roundedMib(calibrated.simulatedReservedMib)},
                        {"before_mib", estimate::roundedMib(calibrated.beforeMib)},
                        {"after_mib", estimate::roundedMib(calibrated.afterMib)},
                        {"residual_mib", estimate::roundedMib(job.measuredMib - calibrated.afterMib)}});
    }
    const auto &fit = calibration.fit;
    return {{"measured", configuration.measuredPath},
            {"gpu", base.name},
            {"jobs", std::move(jobs)},
            {"before",
             {{"context_mib", base.contextMib},
              {"workspace_mib", base.workspaceMib},
              {"rms_residual_mib", estimate::roundedMib(fit.rmsResidualBeforeMib)}}},
            {"after",
             {{"context_mib", calibration.profile.contextMib},
              {"workspace_mib", calibration.profile.workspaceMib},
              {"context_fitted", fit.contextFitted},
              {"workspace_fitted", fit.workspaceFitted},
              {"rms_residual_mib", estimate::roundedMib(fit.rmsResidualAfterMib)}}},
            {"profile", io::Json::parse(estimate::gpuProfileJson(calibration.profile))},
            {"written", configuration.outputPath ? io::Json(*configuration.outputPath) : io::Json()},
            {"notes", result.notes}};
}

} // namespace gpumem::workflows
