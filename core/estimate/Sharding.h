// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/TaggedTrace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::estimate {

// How a training job is spread over several GPUs. Each scheme is named after the
// code whose memory it follows:
// - Ddp: PyTorch's DistributedDataParallel, every GPU a full replica; its Reducer
//   keeps flat gradient buckets as large as the gradients (gradient_as_bucket_view
//   off, the default).
// - Zero1, Zero2, Zero3: DeepSpeed's ZeRO stages, partitioning over the data-parallel
//   GPUs the optimizer state with float32 master weights (1), and the gradients (2),
//   and the parameters, gathered module by module with a prefetch bucket (3).
// - Fsdp: PyTorch's FSDP2, fully_shard on every decoder layer and on the root: each
//   parameter sharded on its first dimension, a layer all-gathered for its forward
//   and backward with the next one prefetched, its gradients reduce-scattered, the
//   root's (embeddings, final norm, output) kept gathered from forward to backward.
enum class ShardingScheme
{
    None,
    Ddp,
    Zero1,
    Zero2,
    Zero3,
    Fsdp,
};

// Returns "none", "ddp", "zero1", "zero2", "zero3" or "fsdp".
std::string shardingName(ShardingScheme scheme);
// The names shardingName gives, in that order, for help and messages.
const std::vector<std::string> &shardingNames();
// Reads a name shardingName gives; throws io::InputError naming the parameter "sharding".
ShardingScheme parseSharding(const std::string &name);

// The GPUs of one job: gpus in all, tensorParallel of them splitting every layer
// (Megatron's attention heads and MLP columns), the rest data-parallel.
struct ShardingPlan
{
    ShardingScheme scheme = ShardingScheme::None;
    std::int64_t gpus = 1;
    std::int64_t tensorParallel = 1;

    // The data-parallel degree: gpus / tensorParallel.
    std::int64_t dataParallel() const { return gpus / tensorParallel; }
    // Whether anything differs from one GPU: a single GPU is the single-GPU job, with no
    // communicator and nothing partitioned, whatever the scheme.
    bool spreads() const { return gpus > 1; }
    // The NCCL communicators each GPU holds: one per group of more than one GPU (the
    // data-parallel group, the tensor-parallel group).
    int communicators() const;
    // Throws io::InputError naming the parameter at fault: gpus from 1 to
    // largestGpuCount, tensorParallel dividing gpus, a data-parallel scheme for more than
    // tensorParallel GPUs.
    void validate() const;
};

// The most GPUs an estimate takes or searches.
inline constexpr std::int64_t largestGpuCount = 65536;

// Sizes of the model a trace was recorded on that a scheme's buffers follow, in bytes
// of one GPU's model (its tensor-parallel share) unless named elements.
struct ShardedModelSizes
{
    std::uint64_t parameterBytes = 0; // every parameter and buffer
    std::int64_t parameterElements = 0;
    std::uint64_t largestLayerBytes = 0; // the largest decoder layer's parameters and buffers
    // The parameters outside the decoder layers: embeddings, final norm, output projection.
    std::uint64_t rootBytes = 0;
    std::uint64_t largestRootTensorBytes = 0; // the largest of them (the embedding, say)
    // The largest decoder layer's trainable parameters: its unsharded gradients.
    std::uint64_t largestLayerTrainableBytes = 0;
    std::uint64_t trainableBytes = 0; // every trainable parameter
    std::int64_t trainableElements = 0;
};

// DeepSpeed's defaults that size its buffers (deepspeed/runtime/zero/config.py):
// reduce_bucket_size, stage3_prefetch_bucket_size and sub_group_size, in elements.
inline constexpr std::int64_t deepSpeedReduceBucketElements = 500'000'000;
inline constexpr std::int64_t deepSpeedPrefetchBucketElements = 50'000'000;
inline constexpr std::int64_t deepSpeedSubGroupElements = 1'000'000'000;

// Returns what one GPU of plan allocates where trace is a single GPU's training steps
// of the model sized by sizes (traced at its tensor-parallel share): the trace
// unchanged when the plan does not spread; otherwise the partitioned parameters,
// gradients and optimizer state scaled to their share (rounded up: a partition is
// padded to equal parts), and the scheme's own blocks added where the scheme holds them:
// gathered parameters (Category::GatheredParameters) and communication buffers
// (Category::CommunicationBuffers). See docs/estimate.md, "Several GPUs".
TaggedTrace shardedTrace(const TaggedTrace &trace, const ShardingPlan &plan, const ShardedModelSizes &sizes);

} // namespace gpumem::estimate
