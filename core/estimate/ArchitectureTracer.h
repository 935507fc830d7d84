// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architectures/ArchitectureConfig.h"
#include "architectures/BuildOptions.h"
#include "estimate/EstimateConfiguration.h"
#include "estimate/StepTracer.h"
#include "io/NonCopyable.h"
#include "runtime/OperationControl.h"

#include <memory>
#include <string>
#include <vector>

namespace gpumem::estimate {

// Traces a language model given by its config.json under a recipe: the model is
// built natively at its full size on the meta device (architectures::LanguageModel),
// so every layer, the whole sequence and the batch asked for are traced as they are,
// in milliseconds and without memory, and the trace holds what a GPU allocates:
// LibTorch's operators allocate their outputs alike on both, and the operations whose
// CUDA kernels allocate otherwise are written as those kernels allocate
// (architectures/GpuKernels.h). Training runs configuration.steps steps of forward,
// loss, backward, gradient clipping and a TracedOptimizer step; inference runs
// generation with the key/value cache. On several GPUs (configuration.gpus) the model is
// one GPU's tensor-parallel share and the trace one GPU's (shardedTrace). Not
// thread-safe, like every tracer.
class ArchitectureTracer final : public StepTracer, private io::NonCopyable
{
  public:
    // Reads configuration.architecture and checks the recipe against it; throws
    // io::InputError, one line naming the option at fault.
    explicit ArchitectureTracer(EstimateConfiguration configuration,
                                const runtime::OperationControl *control = nullptr);
    ~ArchitectureTracer() override;

    const ModelSummary &summary() const override { return mSummary; }
    TaggedTrace trace(std::int64_t batchSize) const override;

    const architectures::ArchitectureConfig &architecture() const { return mArchitecture; }
    const architectures::BuildOptions &buildOptions() const { return mOptions; }
    // The GPUs the trace is one of, and the sizes of the model share one GPU holds
    // (tensor-parallel), from which a trace is sharded for other data-parallel degrees.
    const ShardingPlan &shardingPlan() const { return mPlan; }
    const ShardedModelSizes &shardedModelSizes() const { return mSizes; }

  private:
    struct Model;
    EstimateConfiguration mConfiguration;
    architectures::ArchitectureConfig mArchitecture;
    architectures::BuildOptions mOptions;
    ShardingPlan mPlan;
    std::unique_ptr<Model> mModel;
    ModelSummary mSummary;
    ShardedModelSizes mSizes;
    const runtime::OperationControl *mControl;
};

// The recipe of configuration as the model is built with it; throws io::InputError
// for options that do not go together (autocast over half-precision weights, QLoRA
// without LoRA, generated tokens in training, float64, data-parallel GPUs for inference).
architectures::BuildOptions buildOptionsOf(const EstimateConfiguration &configuration);

} // namespace gpumem::estimate
