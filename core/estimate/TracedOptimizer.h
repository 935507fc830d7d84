// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/types.h>

#include <string>
#include <vector>

namespace gpumem::estimate {

// The optimizers of a traced training step, allocating as PyTorch 2's CUDA
// implementations do (torch.optim, non-capturable, no amsgrad):
//  - "foreach" (the default on CUDA): the state is created on the first step
//    (Adam: exp_avg and exp_avg_sq per parameter; SGD with momentum: a clone of the
//    gradient), updates are in place, and Adam's denominators
//    (torch._foreach_sqrt) are one temporary per parameter, all alive together for
//    the final update;
//  - "fused" (fused=True): one kernel updates every tensor in place, so Adam makes
//    no denominators; its step counts are tensors on the device, one float32
//    scalar per parameter, created with the state;
//  - "for_loop" (foreach=False): Adam updates one parameter at a time, and
//    (exp_avg_sq.sqrt() / bias_correction2_sqrt) makes two temporaries of that
//    parameter's size, the square root freed once divided, the quotient after
//    the update.
// SGD allocates alike in all three. adamw_8bit (bitsandbytes) and adafactor
// (transformers) allocate as their one implementation does. LibTorch's own optimizers allocate per
// parameter, as "for_loop" does but without its division, so their CPU peak would
// not be the GPU's. Only the allocations are made, in their order and sizes: the
// arithmetic happens in place, allocates nothing on the GPU (its scalars are kernel
// arguments), and would cost a trace a dozen passes over the parameters per step
// while no size depends on a value.
class TracedOptimizer
{
  public:
    // name is one of optimizerNames() and implementation one of
    // optimizerImplementationNames() (EstimateConfiguration.h); throws
    // io::InputError otherwise.
    TracedOptimizer(std::string name, std::string implementation, std::vector<torch::Tensor> parameters);

    // The allocations of one update of every parameter that has a gradient.
    void step();
    // The allocations of torch.nn.utils.clip_grad_norm_ over the gradients (foreach),
    // made before step().
    void clipGradients();

  private:
    void stepSgdMomentum();
    void stepAdam();
    void stepAdam8bit();
    void stepAdafactor();

    std::string mName;
    std::string mImplementation;
    std::vector<torch::Tensor> mParameters;
    std::vector<torch::Tensor> mFirstMoments;  // adam: exp_avg; sgd_momentum: momentum_buffer
    std::vector<torch::Tensor> mSecondMoments; // adam: exp_avg_sq
    std::vector<torch::Tensor> mStepCounts;    // fused adam: state["step"] on the device
    std::vector<torch::Tensor> mScales;        // adamw_8bit: the blocks' absmax of both moments
};

} // namespace gpumem::estimate
