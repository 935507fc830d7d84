// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/EstimateWorkflow.h"

#include "estimate/ArchitectureTracer.h"
#include "estimate/ModelTracer.h"
#include "io/InputError.h"
#include "runtime/ThreadSettings.h"
#include "workflows/LanguageModelEstimates.h"

#include <memory>

namespace gpumem::workflows {

namespace {

// profile on one GPU of settings' GPUs: with the NCCL communicators that GPU holds.
estimate::GpuProfile onEachGpu(estimate::GpuProfile profile, const EstimateSettings &settings)
{
    profile.communicators = estimate::shardingPlanOf(settings.model).communicators();
    return profile;
}

} // namespace

estimate::GpuProfile chosenProfile(const EstimateSettings &settings)
{
    const estimate::GpuProfile profile = onEachGpu(estimate::findGpuProfile(settings.gpu), settings);
    return settings.contextMib ? estimate::withContextMib(profile, *settings.contextMib) : profile;
}

EstimateOutcome estimateModel(const EstimateSettings &settings, runtime::ProgressObserver *observer,
                              const runtime::OperationControl *control)
{
    // Every traced step runs on one thread (its allocations in one order), and the
    // replays are plain C++: an estimate needs no more.
    runtime::setComputeThreads(1);
    EstimateOutcome outcome;
    const estimate::GpuProfile profile = chosenProfile(settings);
    estimate::EstimateRequest request = settings.request;
    if (settings.everyProfile) {
        for (const auto &name : estimate::gpuProfileNames()) {
            try {
                // The chosen GPU's row agrees with the estimate above it.
                outcome.profiles.push_back(name == settings.gpu ? profile
                                                                : onEachGpu(estimate::findGpuProfile(name), settings));
            } catch (const std::exception &) {
                // A broken profile file stays out of the table; choosing it says why.
            }
        }
        request.maxBatchAlsoFor = outcome.profiles;
    }
    estimate::stopIfCancelled(control);
    // A language model's config is built natively; a TorchScript file runs its own code.
    std::unique_ptr<estimate::StepTracer> tracer;
    if (settings.model.architecture.empty()) {
        settings.model.validate();
        tracer = std::make_unique<estimate::ModelTracer>(settings.model, control);
    } else {
        tracer = std::make_unique<estimate::ArchitectureTracer>(settings.model, control);
    }
    outcome.result = estimate::MemoryEstimator::estimate(*tracer, profile, request, observer, control);
    const std::int64_t firstBatch = settings.request.batchSizes.empty() ? 1 : settings.request.batchSizes.front();
    if (settings.searchMaxSequenceLength)
        outcome.answers.maxSequenceLength = maxSequenceLength(settings, firstBatch, control);
    if (settings.searchMinGpus)
        outcome.answers.minGpus = minGpuCount(settings, firstBatch, control);
    return outcome;
}

} // namespace gpumem::workflows
