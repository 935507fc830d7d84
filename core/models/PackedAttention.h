// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Multi-head scaled dot-product attention of a packed projection: queries, keys and
// values side by side in [batch, tokens, 3·d_model], as MultiheadAttention's input
// projection gives them. Every function returns the heads' outputs side by side,
// [batch, tokens, d_model], before the output projection. padding: [batch, tokens]
// bool, true at keys to ignore, or undefined. keep: the attention-weight dropout's
// mask, [batch, heads, tokens, tokens] of 0 or 1/(1-p), or undefined for none.
// Include only from .cpp files: this header pulls in <torch/torch.h>.

#include <torch/torch.h>

namespace gpumem::models {

// Draws the keep mask of dropout with probability `dropout` on the attention weights
// of `projected`; undefined when nothing is dropped (not training, or dropout 0).
torch::Tensor attentionDropoutMask(const torch::Tensor &projected, std::int64_t heads, double dropout, bool training);

// Attention from LibTorch's operators, on any device.
torch::Tensor tensorAttention(const torch::Tensor &projected, std::int64_t heads, const torch::Tensor &padding,
                              const torch::Tensor &keep);

// The same function as one CPU kernel with its own backward, float32 only.
torch::Tensor fusedCpuAttention(const torch::Tensor &projected, std::int64_t heads, const torch::Tensor &padding,
                                const torch::Tensor &keep);

// Attention the fastest way for where `projected` lives: fusedCpuAttention for
// float32 on the CPU, tensorAttention elsewhere.
torch::Tensor packedAttention(const torch::Tensor &projected, std::int64_t heads, const torch::Tensor &padding,
                              double dropout, bool training);

} // namespace gpumem::models
