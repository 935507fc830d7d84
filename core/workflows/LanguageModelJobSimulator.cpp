// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/LanguageModelJobSimulator.h"

#include "architectures/ParameterCount.h"
#include "workflows/EstimateWorkflow.h"

#include <algorithm>

namespace gpumem::workflows {

namespace {

double mebibytes(std::uint64_t bytes)
{
    return static_cast<double>(bytes) / 1048576.0;
}

// The job as `gpumem estimate --config` takes it.
estimate::EstimateConfiguration configurationOf(const probe::JobConfiguration &job)
{
    estimate::EstimateConfiguration configuration;
    configuration.architecture = job.architecture;
    configuration.sequenceLength = job.sequenceLength;
    configuration.dtype = job.dtype;
    configuration.autocast = job.autocast == "none" ? std::string() : job.autocast;
    configuration.optimizer = job.optimizer;
    configuration.gradientCheckpointing = job.checkpointing;
    configuration.loraRank = job.loraRank;
    if (job.loraRank > 0) {
        std::string targets = job.loraTargets;
        std::replace(targets.begin(), targets.end(), '+', ',');
        configuration.loraTargets = architectures::parseLoraTargets(targets);
    }
    configuration.qlora = job.qlora;
    configuration.mode = job.mode;
    configuration.generatedTokens = job.generated;
    configuration.gpus = job.gpus;
    configuration.sharding = job.sharding;
    configuration.tensorParallel = job.tensorParallel;
    return configuration;
}

} // namespace

LanguageModelJobSimulator::LanguageModelJobSimulator(std::string profile)
    : mProfile(std::move(profile))
{
}

probe::JobMeasurement LanguageModelJobSimulator::measure(const probe::JobConfiguration &job) const
{
    return probe::measureReportingFailure([&](probe::JobMeasurement &measurement) {
        EstimateSettings settings;
        settings.model = configurationOf(job);
        settings.request.batchSizes = {job.batchSize};
        settings.gpu = mProfile;
        const estimate::EstimateResult result = estimateModel(settings).result;
        const estimate::BatchEstimate &estimate = result.estimates.front();
        measurement.peakAllocatedBytes = estimate.peakRequestedBytes;
        measurement.simulatedReservedBytes = estimate.peakReservedBytes;
        measurement.simulatedDeviceMib = estimate.deviceTotalMib();
        measurement.simulatedFits = estimate.fitsOn(result.profile);
        const auto part = [&](estimate::Category category) {
            return mebibytes(estimate.bytesAtPeak[static_cast<std::size_t>(category)]);
        };
        // In the order of probe::languageModelBreakdownColumns().
        measurement.simulatedBreakdownMib = {
            part(estimate::Category::Parameters),         part(estimate::Category::Gradients),
            part(estimate::Category::OptimizerState),     part(estimate::Category::Activations),
            part(estimate::Category::GatheredParameters), part(estimate::Category::CommunicationBuffers),
            mebibytes(estimate.allocatorOverheadBytes()), estimate.ncclMib};
        if (!result.extrapolated)
            measurement.message = "traced at its own batch: the small traces do not align";
    });
}

} // namespace gpumem::workflows
