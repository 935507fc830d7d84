// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/TaggedTrace.h"

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

namespace gpumem::estimate {

// The bytes a GPU allocates for some blocks of a CPU trace instead of theirs, by the
// trace's block number; 0 for a block the GPU never allocates. The recorders that
// rewrite a CPU kernel's allocations as the GPU's fill it; tagTrace applies it.
using GpuBlockBytes = std::unordered_map<std::uint64_t, std::uint64_t>;

// The blocks that the GPU sizes as the lesser of two algorithms' workspaces, by block
// number: both sizes (the block's bytes are their minimum). tagTrace applies it.
using GpuBlockAlgorithms = std::unordered_map<std::uint64_t, AlgorithmBytes>;

// The blocks that stand for a GPU library's workspace (cuDNN's, within a convolution
// call) rather than a tensor, by block number: tagTrace gives them their own category.
using GpuWorkspaceBlocks = std::unordered_set<std::uint64_t>;

} // namespace gpumem::estimate
