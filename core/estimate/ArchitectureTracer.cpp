// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ArchitectureTracer.h"

#include "architectures/ArchitectureLibrary.h"
#include "architectures/LanguageModel.h"
#include "architectures/ParameterCount.h"
#include "architectures/TensorParallel.h"
#include "estimate/EstimateCancelled.h"
#include "estimate/MetaAllocationRecorder.h"
#include "estimate/StepRecording.h"
#include "estimate/TracedOptimizer.h"
#include "io/InputError.h"

#include <torch/torch.h>

#include <algorithm>
#include <mutex>

namespace gpumem::estimate {

namespace {

// The meta device has one allocator, which a trace replaces while it runs.
std::mutex &metaTracingMutex()
{
    static std::mutex mutex;
    return mutex;
}

std::uint64_t storageBytes(const std::vector<torch::Tensor> &tensors)
{
    std::uint64_t bytes = 0;
    for (const torch::Tensor &tensor : tensors)
        bytes += static_cast<std::uint64_t>(tensor.storage().nbytes());
    return bytes;
}

// What a sharding scheme's buffers follow in network: its decoder layers (the modules
// registered as layer_i) against the rest, the root.
ShardedModelSizes shardedSizesOf(const architectures::LanguageModelImpl &network)
{
    ShardedModelSizes sizes;
    std::uint64_t layerBytes = 0;
    for (const auto &child : network.named_children()) {
        if (child.key().rfind("layer_", 0) != 0)
            continue;
        const std::uint64_t bytes = storageBytes(child.value()->parameters()) + storageBytes(child.value()->buffers());
        layerBytes += bytes;
        sizes.largestLayerBytes = std::max(sizes.largestLayerBytes, bytes);
        std::uint64_t trainable = 0;
        for (const torch::Tensor &parameter : child.value()->parameters())
            if (parameter.requires_grad())
                trainable += static_cast<std::uint64_t>(parameter.storage().nbytes());
        sizes.largestLayerTrainableBytes = std::max(sizes.largestLayerTrainableBytes, trainable);
    }
    for (const torch::Tensor &parameter : network.parameters()) {
        sizes.parameterElements += parameter.numel();
        if (parameter.requires_grad()) {
            sizes.trainableBytes += static_cast<std::uint64_t>(parameter.storage().nbytes());
            sizes.trainableElements += parameter.numel();
        }
    }
    for (const torch::Tensor &parameter : network.parameters(/*recurse=*/false))
        sizes.largestRootTensorBytes =
            std::max(sizes.largestRootTensorBytes, static_cast<std::uint64_t>(parameter.storage().nbytes()));
    sizes.parameterBytes = storageBytes(network.parameters()) + storageBytes(network.buffers());
    sizes.rootBytes = sizes.parameterBytes - layerBytes;
    return sizes;
}

} // namespace

struct ArchitectureTracer::Model
{
    architectures::LanguageModel network{nullptr};
};

architectures::BuildOptions buildOptionsOf(const EstimateConfiguration &configuration)
{
    configuration.validate();
    architectures::BuildOptions options;
    options.weights = configuration.dtype;
    options.autocast = configuration.autocast;
    options.training = configuration.mode == "training";
    if (configuration.loraRank > 0) {
        options.lora.rank = configuration.loraRank;
        options.lora.targets = configuration.loraTargets;
    }
    options.loraAlpha = configuration.loraAlpha;
    options.loraDropout = configuration.loraDropout;
    options.qlora = configuration.qlora;
    options.gradientCheckpointing = configuration.gradientCheckpointing;
    return options;
}

ArchitectureTracer::ArchitectureTracer(EstimateConfiguration configuration, const runtime::OperationControl *control)
    : mConfiguration(std::move(configuration))
    , mArchitecture(architectures::resolveArchitecture(mConfiguration.architecture))
    , mOptions(buildOptionsOf(mConfiguration))
    , mPlan(shardingPlanOf(mConfiguration))
    , mModel(std::make_unique<Model>())
    , mControl(control)
{
    if (mConfiguration.generatedTokens > 0 && mArchitecture.family == architectures::Family::Bert)
        throw io::InputError(io::parameter("generated_tokens") + " needs a decoder: " + mArchitecture.name +
                             " is an encoder, served by one forward pass (" + io::parameter("generated_tokens") +
                             " 0)");
    const std::int64_t tokens = mConfiguration.sequenceLength + mConfiguration.generatedTokens;
    if (tokens > mArchitecture.maxPositions)
        throw io::InputError(io::parameter("seq_len") +
                             (mConfiguration.generatedTokens > 0 ? " and " + io::parameter("generated_tokens") : "") +
                             " give " + std::to_string(tokens) + " tokens, more than " + mArchitecture.name +
                             "'s max_position_embeddings of " + std::to_string(mArchitecture.maxPositions));
    // The count as peft gives it, and the check that every target names a linear layer.
    mSummary.trainableParameterCount = architectures::trainableParameterCount(mArchitecture, mOptions.lora);
    mSummary.parameterCount = architectures::parameterCount(mArchitecture);
    mSummary.tracedOn = "the meta device";
    {
        const std::lock_guard<std::mutex> serialised(metaTracingMutex());
        // With tensor parallelism, the share of every layer one GPU holds, built as a model of its own.
        mModel->network = architectures::LanguageModel(
            architectures::tensorParallelShare(mArchitecture, mPlan.tensorParallel), mOptions);
    }
    mSummary.parameterBytes = storageBytes(mModel->network->parameters());
    mSummary.bufferBytes = storageBytes(mModel->network->buffers());
    mSizes = shardedSizesOf(*mModel->network);
    if (mOptions.training)
        TracedOptimizer(mConfiguration.optimizer, mConfiguration.optimizerImplementation, {}); // checks the names
}

ArchitectureTracer::~ArchitectureTracer() = default;

TaggedTrace ArchitectureTracer::trace(std::int64_t batchSize) const
{
    const std::lock_guard<std::mutex> serialised(metaTracingMutex());
    architectures::LanguageModelImpl &network = *mModel->network;
    const auto ids = architectures::metaOptions(torch::kInt64);
    // The batch: token ids, and for training labels alike (the collator's copy).
    const torch::Tensor tokens = torch::empty({batchSize, mConfiguration.sequenceLength}, ids);
    const torch::Tensor labels = mOptions.training ? torch::empty_like(tokens) : torch::Tensor();
    std::vector<torch::Tensor> trainable = network.trainableParameters();
    std::vector<SetupBlock> setup;
    std::unordered_set<const void *> seen;
    addStorageBlocks(network.parameters(), Category::Parameters, seen, setup);
    addStorageBlocks(network.buffers(), Category::Parameters, seen, setup);
    addStorageBlocks(labels.defined() ? std::vector<torch::Tensor>{tokens, labels} : std::vector<torch::Tensor>{tokens},
                     Category::Activations, seen, setup);
    // float16 autocast trains under a GradScaler: its scale and growth tracker, one
    // element each, live from the first step on.
    const bool scaled = mOptions.training && mOptions.autocast == "float16";
    const auto floats = architectures::metaOptions(torch::kFloat32);
    const std::vector<torch::Tensor> scalerState =
        scaled ? std::vector<torch::Tensor>{torch::empty({1}, floats), torch::empty({1}, ids.dtype(torch::kInt32))}
               : std::vector<torch::Tensor>{};
    addStorageBlocks(scalerState, Category::OptimizerState, seen, setup);

    RecordedSteps recorded;
    recorded.runsMatrixProducts = true;
    try {
        const MetaAllocationRecorder recorder;
        if (!mOptions.training) {
            recorded.marks.push_back({recorder.eventCount(), Phase::Forward});
            stopIfCancelled(mControl);
            const torch::Tensor generated =
                network.generate(tokens, std::max<std::int64_t>(mConfiguration.generatedTokens, 1));
            recorded.raw = recorder.trace();
        } else {
            const torch::AutoGradMode gradients(true);
            TracedOptimizer optimizer(mConfiguration.optimizer, mConfiguration.optimizerImplementation, trainable);
            torch::Tensor loss;
            for (int step = 0; step < mConfiguration.steps; ++step) {
                stopIfCancelled(mControl);
                recorded.marks.push_back({recorder.eventCount(), Phase::Forward});
                for (torch::Tensor &parameter : trainable)
                    parameter.mutable_grad().reset();
                loss = network.trainingLoss(tokens, labels);
                stopIfCancelled(mControl);
                recorded.marks.push_back({recorder.eventCount(), Phase::Backward});
                if (scaled)
                    (loss * scalerState.front()).backward(); // scaler.scale(loss).backward()
                else
                    loss.backward();
                stopIfCancelled(mControl);
                recorded.marks.push_back({recorder.eventCount(), Phase::Optimizer});
                torch::Tensor inverseScale, foundInfinity;
                if (scaled) {
                    // scaler.unscale_: the scale's reciprocal (through float64) and a found-inf flag;
                    // the gradients are unscaled in place.
                    const torch::Tensor wide = torch::empty({1}, ids.dtype(torch::kFloat64));
                    inverseScale = torch::empty({1}, floats);
                    foundInfinity = torch::empty({1}, floats);
                }
                if (mConfiguration.clipGradNorm)
                    optimizer.clipGradients();
                optimizer.step();
            }
            // Taken before the optimizer and the loss go, as a training loop keeps them.
            recorded.raw = recorder.trace();
        }
    } catch (const c10::Error &error) {
        for (torch::Tensor &parameter : trainable)
            parameter.mutable_grad().reset();
        throw io::InputError(mArchitecture.name + " fails at batch " + std::to_string(batchSize) + ": " +
                             error.what_without_backtrace());
    }
    for (torch::Tensor &parameter : trainable)
        parameter.mutable_grad().reset();
    return shardedTrace(tagTrace(batchSize, setup, recorded), mPlan, mSizes);
}

} // namespace gpumem::estimate
