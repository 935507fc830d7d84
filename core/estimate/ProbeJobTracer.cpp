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

const torch::Device kCpu(torch::kCPU);

// job at batchSize, built afresh (built empty) or from built's network.
void buildOnCpu(probe::TrainingJob &built, probe::JobConfiguration job, std::int64_t batchSize)
{
    if (batchSize <= 0 || batchSize > std::numeric_limits<int>::max())
        throw io::InputError("batch " + std::to_string(batchSize) + " is not a batch size a probe job takes");
    job.batchSize = static_cast<int>(batchSize);
    try {
        if (built.network)
            probe::JobBuilder::resize(built, job, kCpu);
        else
            built = probe::JobBuilder::build(job, kCpu);
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
    , mBuilt(std::make_unique<probe::TrainingJob>())
{
    // Built as every trace builds it, so that the first trace steps this network.
    torch::AutoGradMode gradients(true);
    torch::manual_seed(0);
    buildOnCpu(*mBuilt, mJob, 1);
    for (const torch::Tensor &parameter : mBuilt->network->parameters()) {
        mSummary.parameterBytes += static_cast<std::uint64_t>(parameter.numel()) * parameter.element_size();
        mSummary.parameterCount += parameter.numel();
    }
    for (const torch::Tensor &buffer : mBuilt->network->buffers())
        mSummary.bufferBytes += static_cast<std::uint64_t>(buffer.numel()) * buffer.element_size();
}

ProbeJobTracer::~ProbeJobTracer() = default;

TaggedTrace ProbeJobTracer::trace(std::int64_t batchSize) const
{
    return trace(mJob, batchSize);
}

TaggedTrace ProbeJobTracer::trace(const probe::JobConfiguration &shaped, std::int64_t batchSize) const
{
    torch::AutoGradMode gradients(true);
    torch::manual_seed(0);
    // Resized before the allocator is installed, so that the new batch and a
    // Transformer's new position table are setup blocks, as when built afresh.
    probe::TrainingJob &built = *mBuilt;
    buildOnCpu(built, shaped, batchSize);
    std::vector<torch::Tensor> parameters = built.network->parameters();
    std::vector<SetupBlock> setup;
    std::unordered_set<const void *> seen;
    addStorageBlocks(parameters, Category::Parameters, seen, setup);
    addStorageBlocks(built.network->buffers(), Category::Parameters, seen, setup);
    addStorageBlocks(built.batch, Category::Activations, seen, setup);

    probe::TrackingAllocator allocator(true, mMemoryLimitBytes);
    RecordedSteps recorded;
    try {
        TracingScope scope(allocator);
        // The probe's jobs compute attention with their own operators on a GPU too.
        recorded = runTracedSteps(allocator, parameters, shaped.optimizer, "foreach", shaped.steps,
                                  AttentionKernel::Math, built.loss);
    } catch (const c10::Error &error) {
        throw io::InputError("the job fails at batch " + std::to_string(batchSize) + ": " +
                             essentialErrorLine(error.what_without_backtrace()));
    }
    // The last step's gradients go now rather than live until the next trace.
    for (torch::Tensor &parameter : parameters)
        parameter.mutable_grad().reset();
    return tagTrace(batchSize, setup, recorded);
}

} // namespace gpumem::estimate
