// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One layer of a GRU, batch first, from a zero initial state, with the weights of a
// single-layer torch::nn::GRU (gate order reset, update, new). Include only from .cpp
// files: this header pulls in <torch/torch.h>.

#include <torch/torch.h>

namespace gpumem::models {

// input: [batch, tokens, features]; returns every step's hidden state, [batch, tokens, hidden].
// On the CPU in float32 a fused recurrence with its own backward (fusedCpuGru), elsewhere the module itself.
torch::Tensor runGruLayer(torch::nn::GRUImpl &gru, const torch::Tensor &input);

// The same recurrence as the module, computed on the CPU in float32 with the gates of each
// step in one loop and a backward written for it.
torch::Tensor fusedCpuGru(torch::nn::GRUImpl &gru, const torch::Tensor &input);

} // namespace gpumem::models
