// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/Sharding.h"

#include "io/InputError.h"

#include <algorithm>
#include <array>

namespace gpumem::estimate {

namespace {

constexpr std::array<ShardingScheme, 6> kSchemes = {ShardingScheme::None,  ShardingScheme::Ddp,   ShardingScheme::Zero1,
                                                    ShardingScheme::Zero2, ShardingScheme::Zero3, ShardingScheme::Fsdp};

// DistributedDataParallel's bucket caps (torch/nn/parallel/distributed.py): the first
// bucket holds 1 MiB so that the first all-reduce starts early, the others 25 MiB.
constexpr std::uint64_t kDdpFirstBucketBytes = 1u << 20;
constexpr std::uint64_t kDdpBucketBytes = 25u << 20;

std::uint64_t shareOf(std::uint64_t bytes, std::int64_t parts)
{
    const auto count = static_cast<std::uint64_t>(parts);
    return bytes / count + (bytes % count != 0 ? 1 : 0);
}

bool deepSpeed(ShardingScheme scheme)
{
    return scheme == ShardingScheme::Zero1 || scheme == ShardingScheme::Zero2 || scheme == ShardingScheme::Zero3;
}

// Whether scheme partitions the blocks of category over the data-parallel GPUs.
bool partitions(ShardingScheme scheme, Category category)
{
    switch (category) {
    case Category::OptimizerState: return scheme != ShardingScheme::Ddp;
    case Category::Gradients:
        return scheme == ShardingScheme::Zero2 || scheme == ShardingScheme::Zero3 || scheme == ShardingScheme::Fsdp;
    case Category::Parameters: return scheme == ShardingScheme::Zero3 || scheme == ShardingScheme::Fsdp;
    default: return false;
    }
}

// A block that one GPU holds for a span of phases, beside the traced ones.
struct HeldBlock
{
    std::uint64_t bytes = 0;
    Category category = Category::CommunicationBuffers;
    Phase from = Phase::Setup;  // allocated as this phase begins (Setup: before the first step)
    Phase until = Phase::Setup; // released as this phase ends (Setup: never)
};

// The blocks plan adds to a training step of the model sized by sizes.
std::vector<HeldBlock> heldBlocks(const ShardingPlan &plan, const ShardedModelSizes &sizes)
{
    const std::int64_t parts = plan.dataParallel();
    const ShardingScheme scheme = plan.scheme;
    std::vector<HeldBlock> blocks;
    const auto hold = [&](std::uint64_t bytes, Category category, Phase from, Phase until) {
        if (bytes > 0)
            blocks.push_back({bytes, category, from, until});
    };
    const std::uint64_t trainableElements =
        static_cast<std::uint64_t>(std::max<std::int64_t>(sizes.trainableElements, 0));
    if (scheme == ShardingScheme::Ddp) {
        // The Reducer's flat buckets, one per 25 MiB of gradients, from construction on.
        std::uint64_t left = sizes.trainableBytes;
        for (std::uint64_t cap = kDdpFirstBucketBytes; left > 0; cap = kDdpBucketBytes) {
            const std::uint64_t bucket = std::min(left, cap);
            hold(bucket, Category::CommunicationBuffers, Phase::Setup, Phase::Setup);
            left -= bucket;
        }
    }
    if (deepSpeed(scheme)) {
        // The float32 master partition (single_partition_of_fp32_groups), made at initialisation.
        hold(4 * shareOf(trainableElements, parts), Category::OptimizerState, Phase::Setup, Phase::Setup);
        // The reduce bucket, in the gradients' dtype, while backward reduces them.
        const std::uint64_t gradientElementBytes =
            trainableElements == 0 ? 0 : sizes.trainableBytes / trainableElements;
        const std::uint64_t bucketElements =
            std::min<std::uint64_t>(trainableElements, static_cast<std::uint64_t>(deepSpeedReduceBucketElements));
        hold(bucketElements * gradientElementBytes, Category::CommunicationBuffers, Phase::Backward, Phase::Backward);
        // The step flattens the partition's gradients into float32 beside the master weights;
        // ZeRO-3 one sub-group at a time.
        const std::uint64_t flattened =
            scheme == ShardingScheme::Zero3
                ? std::min(shareOf(trainableElements, parts), static_cast<std::uint64_t>(deepSpeedSubGroupElements))
                : shareOf(trainableElements, parts);
        hold(4 * flattened, Category::Gradients, Phase::Optimizer, Phase::Optimizer);
    }
    const std::uint64_t parameterElementBytes =
        sizes.parameterElements <= 0 ? 0 : sizes.parameterBytes / static_cast<std::uint64_t>(sizes.parameterElements);
    if (scheme == ShardingScheme::Zero3) {
        // The module being run, gathered whole, and the prefetch bucket's next parameters.
        const std::uint64_t unit = std::max(sizes.largestLayerBytes, sizes.largestRootTensorBytes);
        const std::uint64_t prefetch =
            std::min(unit, static_cast<std::uint64_t>(deepSpeedPrefetchBucketElements) * parameterElementBytes);
        hold(unit + prefetch, Category::GatheredParameters, Phase::Forward, Phase::Backward);
    }
    if (scheme == ShardingScheme::Fsdp) {
        // The root group stays gathered from forward to backward (reshard_after_forward is
        // off for the root); a layer is gathered while it runs and the next one prefetched.
        hold(sizes.rootBytes, Category::GatheredParameters, Phase::Forward, Phase::Backward);
        hold(2 * sizes.largestLayerBytes, Category::GatheredParameters, Phase::Forward, Phase::Backward);
        // A layer's unsharded gradients and the reduce-scatter's output shard.
        hold(sizes.largestLayerTrainableBytes + shareOf(sizes.largestLayerTrainableBytes, parts),
             Category::CommunicationBuffers, Phase::Backward, Phase::Backward);
    }
    return blocks;
}

} // namespace

std::string shardingName(ShardingScheme scheme)
{
    switch (scheme) {
    case ShardingScheme::None: return "none";
    case ShardingScheme::Ddp: return "ddp";
    case ShardingScheme::Zero1: return "zero1";
    case ShardingScheme::Zero2: return "zero2";
    case ShardingScheme::Zero3: return "zero3";
    case ShardingScheme::Fsdp: return "fsdp";
    }
    return "none";
}

const std::vector<std::string> &shardingNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all;
        for (const ShardingScheme scheme : kSchemes)
            all.push_back(shardingName(scheme));
        return all;
    }();
    return names;
}

ShardingScheme parseSharding(const std::string &name)
{
    for (const ShardingScheme scheme : kSchemes)
        if (shardingName(scheme) == name)
            return scheme;
    throw io::InputError("sharding takes none, ddp, zero1, zero2, zero3 or fsdp, not " + io::quoteForMessage(name));
}

int ShardingPlan::communicators() const
{
    return (dataParallel() > 1 ? 1 : 0) + (tensorParallel > 1 ? 1 : 0);
}

void ShardingPlan::validate() const
{
    if (gpus < 1 || gpus > largestGpuCount)
        throw io::InputError("gpus must be a whole number from 1 to " + std::to_string(largestGpuCount));
    if (tensorParallel < 1 || tensorParallel > gpus || gpus % tensorParallel != 0)
        throw io::InputError("tensor_parallel must divide gpus (" + std::to_string(gpus) + "), not " +
                             std::to_string(tensorParallel));
    if (dataParallel() > 1 && scheme == ShardingScheme::None)
        throw io::InputError("sharding: " + std::to_string(dataParallel()) +
                             " data-parallel GPUs need a scheme: ddp, zero1, zero2, zero3 or fsdp");
}

TaggedTrace shardedTrace(const TaggedTrace &trace, const ShardingPlan &plan, const ShardedModelSizes &sizes)
{
    if (!plan.spreads() || plan.dataParallel() == 1)
        return trace; // tensor parallelism alone is in the model's own (split) shapes
    const std::int64_t parts = plan.dataParallel();
    const std::vector<HeldBlock> blocks = heldBlocks(plan, sizes);

    TaggedTrace sharded;
    sharded.batchSize = trace.batchSize;
    sharded.runsMatrixProducts = trace.runsMatrixProducts;
    sharded.events.reserve(trace.events.size() + 8 * blocks.size());
    std::vector<std::int64_t> moved(trace.events.size(), -1); // event index -> its index in sharded
    std::vector<std::int64_t> held(blocks.size(), -1);        // block -> its open allocation, or -1
    const auto release = [&](std::size_t block, Phase phase) {
        const std::int64_t index = held[block];
        sharded.events.push_back(
            {sharded.events[static_cast<std::size_t>(index)].bytes, index, phase, blocks[block].category});
        held[block] = -1;
    };
    // At a change of phase: what was held until the phase that ends goes, then what is
    // held from the phase that begins comes; the setup blocks come before the first step.
    // A window from forward to backward thus stays open over the change between them.
    const auto changePhase = [&](Phase ending, Phase beginning) {
        for (std::size_t b = 0; b < blocks.size(); ++b)
            if (held[b] >= 0 && blocks[b].until != Phase::Setup && blocks[b].until == ending)
                release(b, ending);
        for (std::size_t b = 0; b < blocks.size(); ++b) {
            const bool setupBlock = blocks[b].from == Phase::Setup;
            const bool opens =
                setupBlock ? ending == Phase::Setup && beginning != Phase::Setup : blocks[b].from == beginning;
            if (opens && held[b] < 0) {
                held[b] = static_cast<std::int64_t>(sharded.events.size());
                sharded.events.push_back(
                    {blocks[b].bytes, -1, setupBlock ? Phase::Setup : beginning, blocks[b].category});
            }
        }
    };
    // DeepSpeed keeps the optimizer's state in float32 over the float32 master weights,
    // whatever the weights' dtype: half-precision state is widened to it.
    const std::uint64_t trainableElementBytes =
        sizes.trainableElements <= 0
            ? 4
            : std::max<std::uint64_t>(sizes.trainableBytes / static_cast<std::uint64_t>(sizes.trainableElements), 1);
    // The optimizer step's temporaries are as large as what it steps: one partition.
    // DeepSpeed steps with its fused Adam (multi_tensor_apply), which takes none.
    const auto stepTemporary = [&](const TaggedEvent &event) {
        return event.phase == Phase::Optimizer && event.category == Category::Activations &&
               partitions(plan.scheme, Category::OptimizerState);
    };
    Phase phase = Phase::Setup;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        TaggedEvent event = trace.events[i];
        if (event.phase != phase) {
            changePhase(phase, event.phase);
            phase = event.phase;
        }
        if (event.isRelease()) {
            event.allocation = moved[static_cast<std::size_t>(event.allocation)];
            if (event.allocation < 0)
                continue; // the release of a dropped block
            event.bytes = sharded.events[static_cast<std::size_t>(event.allocation)].bytes;
        } else if (deepSpeed(plan.scheme) && stepTemporary(event)) {
            continue; // dropped: moved[i] stays -1
        } else if (partitions(plan.scheme, event.category) || stepTemporary(event)) {
            const bool widened = deepSpeed(plan.scheme) && event.category != Category::Parameters &&
                                 event.category != Category::Gradients && trainableElementBytes < 4;
            event.bytes = shareOf(widened ? event.bytes / trainableElementBytes * 4 : event.bytes, parts);
        }
        moved[i] = static_cast<std::int64_t>(sharded.events.size());
        sharded.events.push_back(event);
    }
    changePhase(phase, Phase::Setup); // the last step's windows close with it
    return sharded;
}

} // namespace gpumem::estimate
