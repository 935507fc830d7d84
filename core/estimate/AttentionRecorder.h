// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/GpuBlockBytes.h"
#include "io/NonCopyable.h"
#include "probe/TrackingAllocator.h"

#include <cstdint>

namespace gpumem::estimate {

// While it lives, rewrites the attention that the calling thread computes as PyTorch
// 1.x does it on the CPU (scores = Q·Kᵀ by a batched product, P = softmax over the last
// dimension, P·V) into what PyTorch 2's fused scaled_dot_product_attention allocates
// on a GPU (the memory-efficient kernel for float32, flash for half precision): no
// L×S matrix exists. The scores and, in backward, the gradients of P and of the
// scores get 0 bytes; P, which the CPU saves for backward, becomes the output and
// the log-sum-exp per query row that the fused kernel saves instead
// (docs/estimate.md, "Attention"). The pattern is recognised through LibTorch's
// operator observers by storage: a softmax whose input is the last batched product's
// output, a product whose first operand is such a softmax's output.
class AttentionRecorder : io::NonCopyable
{
  public:
    AttentionRecorder(const probe::TrackingAllocator &allocator, GpuBlockBytes &gpuBytes);
    ~AttentionRecorder();

  private:
    std::uint64_t mHandle = 0;
};

// The bytes of the log-sum-exp that the memory-efficient kernel saves for attention
// probabilities of rows × queries × keys: one float32 per query, the queries padded
// to a multiple of 32.
std::uint64_t fusedAttentionLogSumExpBytes(std::int64_t rows, std::int64_t queries);

} // namespace gpumem::estimate
