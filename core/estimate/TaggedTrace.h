// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gpumem::estimate {

// The part of a training step an allocation happens in. Setup holds the
// parameters, buffers and the input batch, which exist before the first step.
enum class Phase
{
    Setup,
    Forward,
    Backward,
    Optimizer,
};

// What an allocated block holds: the parameters and buffers of the model, the
// gradients that backward leaves, the optimizer's state, the tensors of the step
// (inputs, activations saved for backward, temporaries), the workspaces that cuDNN
// takes for a convolution call on a GPU, which no CPU kernel allocates, and on one GPU of
// several (Sharding.h) the parameters gathered from the others' shards and the buffers
// that gradients are reduced through.
enum class Category
{
    Parameters,
    Gradients,
    OptimizerState,
    Activations,
    CudnnWorkspaces,
    GatheredParameters,
    CommunicationBuffers,
};

constexpr std::size_t kCategoryCount = 7;

// Returns "setup", "forward", "backward" or "optimizer".
std::string_view phaseName(Phase phase);
// Returns "parameters", "gradients", "optimizer_state", "activations",
// "cudnn_workspaces", "gathered_parameters" or "communication_buffers".
std::string_view categoryName(Category category);

// The workspaces of two algorithms between which cuDNN picks the one that needs less (a
// 1×1 convolution's filter gradient, ConvolutionWorkspace.h). Which one that is changes
// with the batch and the input's size, while each size is a plain function of them.
using AlgorithmBytes = std::array<std::uint64_t, 2>;

// One allocation or release of a traced training run. A release names the
// index of the allocation event it gives back; an allocation has allocation -1.
struct TaggedEvent
{
    std::uint64_t bytes = 0; // requested bytes (the allocation's, on a release)
    std::int64_t allocation = -1;
    Phase phase = Phase::Setup;
    Category category = Category::Activations; // of the block (the same on its release)
    // An allocation whose bytes are the lesser of two algorithms' workspaces: both, so
    // that a fit over batch or input sizes extrapolates each and picks again.
    std::optional<AlgorithmBytes> algorithms = std::nullopt;

    bool isRelease() const { return allocation >= 0; }
};

// The allocations of a model's training steps at one batch size, in order.
struct TaggedTrace
{
    std::int64_t batchSize = 0;
    std::vector<TaggedEvent> events;
    // Whether the forward pass multiplies matrices (cuBLAS on a GPU): without, the
    // process holds no cuBLAS handle, workspace or memory of cuBLAS's beside them.
    bool runsMatrixProducts = true;
};

// The most requested bytes live at once over trace: what the CPU measurement of
// the same steps counts, and what a "sum of live tensors" estimate reports.
std::uint64_t peakRequestedBytes(const TaggedTrace &trace);

// Bytes per category, indexed by static_cast<std::size_t>(Category).
using CategoryBytes = std::array<std::uint64_t, kCategoryCount>;

} // namespace gpumem::estimate
