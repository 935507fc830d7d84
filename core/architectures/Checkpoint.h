// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/types.h>

#include <functional>

namespace gpumem::architectures {

// torch.utils.checkpoint with use_reentrant=True, as transformers checkpoints each
// decoder layer: forward runs layer without gradients and keeps only its input;
// backward runs it again with gradients from a detached copy of the input and
// back-propagates through that second graph, which fills the layer's parameters'
// gradients and gives the input's. layer must outlive the backward pass.
torch::Tensor checkpointed(const std::function<torch::Tensor(const torch::Tensor &)> &layer,
                           const torch::Tensor &input);

} // namespace gpumem::architectures
