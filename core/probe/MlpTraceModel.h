// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/LayerSequenceParser.h"
#include "probe/AllocationEvent.h"

#include <string>
#include <vector>

namespace gpumem::probe {

// Writes down, without running anything, the CUDA allocations of training an
// MLP given as a GPUMemNet layer list, as PyTorch 2 does it in the usual Python
// loop (zero_grad(set_to_none=True), forward, cross-entropy, backward,
// optimizer.step(), a new batch copied to the device each step). It follows
// which tensors autograd saves: a linear or batch-norm layer and the
// activations whose gradient needs the input (GELU, SiLU, Softplus, ...) keep
// their input; ReLU, Sigmoid, Tanh, ELU and Softmax keep their output; dropout
// keeps a one-byte mask. Adam and AdamW (the foreach implementation) hold two
// state tensors per parameter and one temporary per parameter during the step;
// SGD with momentum one buffer. Weight, bias and batch-norm statistics are
// separate tensors. Thread-safe: pure functions.
class MlpTraceModel
{
  public:
    // The trace of steps training steps (2 reach the steady state). The first
    // layer must be 'linear' (its parameters give the input width: parameters =
    // (inputs + 1) × outputs). Throws io::InputError for an empty list or a
    // first layer that is not linear.
    static AllocationTrace trace(const std::vector<data::LayerTuple> &layers, int batchSize,
                                 const std::string &optimizer, int bytesPerElement, int steps = 2);
};

} // namespace gpumem::probe
