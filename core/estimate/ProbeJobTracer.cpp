// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ProbeJobTracer.h"

#include "estimate/ModelTracer.h"
#include "estimate/StepRecording.h"
#include "io/InputError.h"
#include "probe/JobBuilder.h"

#include <limits>
#include <new>

namespace gpumem::estimate {

namespace {

probe::TrainingJob buildOnCpu(probe::JobConfiguration job, std::int64_t batchSize)
{
    if (batchSize <= 0 || batchSize > std::numeric_limits<int>::max())
        throw io::InputError("batch " + std::to_string(batchSize) + " is not a batch size a probe job takes");
    job.batchSize = static_cast<int>(batchSize);
    try {
        return probe::JobBuilder::build(job, torch::Device(torch::kCPU));
    } catch (const io::InputError &) {
        throw;
    } catch (const c10::Error &error) {
        throw io::InputError("LibTorch refuses the job: " + essentialErrorLine(error.what_without_backtrace()));
    }
}

} // namespace

ProbeJobTracer::ProbeJobTracer(probe::JobConfiguration job, std::uint64_t memoryLimitBytes)
    : mJob(std::move(job))
    , mMemoryLimitBytes(memoryLimitBytes)
{
    torch::NoGradGuard noGradients;
    const probe::TrainingJob built = buildOnCpu(mJob, 1);
    for (const torch::Tensor &parameter : built.network->parameters()) {
        mSummary.parameterBytes += static_cast<std::uint64_t>(parameter.numel()) * parameter.element_size();
        mSummary.parameterCount += parameter.numel();
    }
    for (const torch::Tensor &buffer : built.network->buffers())
        mSummary.bufferBytes += static_cast<std::uint64_t>(buffer.numel()) * buffer.element_size();
}

TaggedTrace ProbeJobTracer::trace(std::int64_t batchSize) const
{
    return traceJob(mJob, batchSize, mMemoryLimitBytes);
}

TaggedTrace ProbeJobTracer::traceJob(const probe::JobConfiguration &job, std::int64_t batchSize,
                                     std::uint64_t memoryLimitBytes)
{
    torch::AutoGradMode gradients(true);
    torch::manual_seed(0);
    // Built before the allocator is installed, so that the initialisers' temporaries
    // stay out of the trace; what the built job holds enters it as setup blocks.
    probe::TrainingJob built = buildOnCpu(job, batchSize);
    std::vector<torch::Tensor> parameters = built.network->parameters();
    std::vector<SetupBlock> setup;
    std::unordered_set<const void *> seen;
    addStorageBlocks(parameters, Category::Parameters, seen, setup);
    addStorageBlocks(built.network->buffers(), Category::Parameters, seen, setup);
    addStorageBlocks(built.batch, Category::Activations, seen, setup);

    probe::TrackingAllocator allocator(true, memoryLimitBytes);
    RecordedSteps recorded;
    try {
        TracingScope scope(allocator);
        // The probe's jobs compute attention with their own operators on a GPU too.
        recorded = runTracedSteps(allocator, parameters, job.optimizer, "foreach", job.steps, AttentionKernel::Math,
                                  built.loss);
    } catch (const c10::Error &error) {
        throw io::InputError("the job fails at batch " + std::to_string(batchSize) + ": " +
                             essentialErrorLine(error.what_without_backtrace()));
    }
    return tagTrace(batchSize, setup, recorded);
}

} // namespace gpumem::estimate
