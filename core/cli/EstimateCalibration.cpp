// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/EstimateCalibration.h"

#include "cli/TextTable.h"
#include "estimate/GpuProfile.h"
#include "estimate/MeasuredJobsFile.h"
#include "estimate/MemoryUnits.h"
#include "workflows/CalibrateProfileWorkflow.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace gpumem::cli {

namespace {

std::string fileName(const std::string &path)
{
    return std::filesystem::path(path).filename().string();
}

std::string constantLine(const char *name, double before, double after, bool fitted)
{
    return std::string(name) + ": " + estimate::mibText(before) + " MiB in the profile, " +
           (fitted ? estimate::mibText(after) + " MiB fitted" : std::string("kept (the measurements cannot tell)"));
}

void printText(std::ostream &out, const EstimateCalibrationOptions &options,
               const workflows::CalibrateProfileResult &result)
{
    const estimate::GpuProfile &base = result.base;
    const estimate::ProfileCalibrationResult &calibration = result.calibration;
    std::size_t deviceRows = 0;
    for (const auto &calibrated : calibration.jobs)
        deviceRows += calibrated.job.quantity == estimate::MeasuredQuantity::DeviceTotal ? 1 : 0;
    out << "Calibrating " << base.name << " (" << estimate::mibText(base.capacityMib) << " MiB) to "
        << options.measuredPath << ": " << calibration.jobs.size() << " jobs (" << deviceRows << " nvidia-smi, "
        << calibration.jobs.size() - deviceRows << " max_memory_reserved), " << calibration.tracedConfigurations
        << " traced configurations\n\n";
    const auto numeric = TextTable::numeric;
    TextTable table({numeric("line"), "model", numeric("batch"), "optimizer", "measured by", numeric("measured"),
                     numeric("replay reserved"), numeric("before"), numeric("after"), numeric("residual")});
    for (const auto &calibrated : calibration.jobs) {
        const auto &job = calibrated.job;
        table.addRow({std::to_string(job.line), fileName(job.configuration.modelPath), std::to_string(job.batchSize),
                      job.configuration.optimizer, std::string(estimate::measuredQuantityName(job.quantity)),
                      estimate::mibText(job.measuredMib), estimate::mibText(calibrated.simulatedReservedMib),
                      estimate::mibText(calibrated.beforeMib), estimate::mibText(calibrated.afterMib),
                      estimate::mibText(job.measuredMib - calibrated.afterMib)});
    }
    table.print(out);
    out << "(MiB; before and after: the estimate of what was measured with the profile's and the fitted "
           "constants; residual: measured less after)\n\n";
    const auto &fit = calibration.fit;
    out << constantLine("context_mib", base.contextMib, calibration.profile.contextMib, fit.contextFitted) << '\n'
        << constantLine("workspace_mib", base.workspaceMib, calibration.profile.workspaceMib, fit.workspaceFitted)
        << '\n'
        << "Root mean square residual: " << estimate::mibText(fit.rmsResidualBeforeMib) << " MiB before, "
        << estimate::mibText(fit.rmsResidualAfterMib) << " MiB after\n";
    if (options.outputPath)
        out << "Wrote " << *options.outputPath << " (use it with --gpu " << *options.outputPath << ")\n";
    else
        out << "No --out given: the calibrated profile was not written\n";
    for (const auto &note : result.notes)
        out << "Note: " << note << '\n';
}

} // namespace

const char *estimateCalibrationHelp()
{
    return "\nCalibration: gpumem estimate --calibrate MEASURED.csv --gpu PROFILE [--out PROFILE.json] fits\n"
           "the profile's context_mib and workspace_mib to jobs you measured on your card, so that the\n"
           "estimate matches your driver and CUDA version. MEASURED.csv has a header and one job per row:\n"
           "  model         the TorchScript file (relative to the CSV's folder)\n"
           "  input_shape   one sample's shape, e.g. \"3,224,224\" (quote it); inputs separated by |\n"
           "  batch_size    the batch measured\n"
           "  optimizer     sgd, sgd_momentum, adam or adamw\n"
           "  measured_mib  the peak measured, in MiB\n"
           "  measured_by   nvidia-smi (the process's device total) or max_memory_reserved\n"
           "                (torch.cuda.max_memory_reserved(), which never includes the CUDA context)\n"
           "  optional: dtype, input_kind, vocabulary, loss, classes (empty: the defaults above)\n"
           "An nvidia-smi reading is the replay's reserved peak + workspace + context; a\n"
           "max_memory_reserved reading is reserved + workspace only, so it cannot calibrate the context,\n"
           "and nvidia-smi rows alone keep the profile's workspace and fit the context. The fit is least\n"
           "squares with both constants non-negative; one model's batch sizes share one pair of traces.\n"
           "--out writes the profile (capacity from --gpu) for --gpu FILE.\n";
}

int runEstimateCalibration(const EstimateCalibrationOptions &options, std::ostream &out)
{
    const workflows::CalibrateProfileConfiguration configuration{
        options.measuredPath, options.gpu, options.contextMib, options.outputPath, {}};
    const workflows::CalibrateProfileResult result = workflows::calibrateProfile(configuration);
    if (options.json)
        out << workflows::calibrationJson(configuration, result)
                   .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
            << '\n';
    else
        printText(out, options, result);
    return 0;
}

} // namespace gpumem::cli
