// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/types.h>

#include <string>
#include <vector>

namespace gpumem::estimate {

// The optimizers of a traced training step, allocating as PyTorch 2's default
// CUDA implementations do (foreach=True): the state is created on the first
// step (Adam: exp_avg and exp_avg_sq per parameter; SGD with momentum: a
// clone of the gradient), updates are in place, and Adam's denominator is one
// temporary per parameter, all alive together for the final update. LibTorch's
// own optimizers instead allocate per parameter, so their CPU peak would not
// be the GPU's. Only the allocations are made, in their order and sizes: the
// arithmetic happens in place, allocates nothing, and would cost a trace a dozen
// passes over the parameters per step while no size depends on a value.
class ForeachOptimizer
{
  public:
    // name is sgd, sgd_momentum, adam or adamw; throws io::InputError otherwise.
    ForeachOptimizer(std::string name, std::vector<torch::Tensor> parameters);

    // The allocations of one update of every parameter that has a gradient.
    void step();

  private:
    void stepSgdMomentum();
    void stepAdam();

    std::string mName;
    std::vector<torch::Tensor> mParameters;
    std::vector<torch::Tensor> mFirstMoments;  // adam: exp_avg; sgd_momentum: momentum_buffer
    std::vector<torch::Tensor> mSecondMoments; // adam: exp_avg_sq
};

} // namespace gpumem::estimate
