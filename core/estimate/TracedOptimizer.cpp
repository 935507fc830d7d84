// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/TracedOptimizer.h"

#include "estimate/EstimateConfiguration.h"
#include "io/InputError.h"

#include <torch/torch.h>

#include <algorithm>

namespace gpumem::estimate {

TracedOptimizer::TracedOptimizer(std::string name, std::string implementation, std::vector<torch::Tensor> parameters)
    : mName(std::move(name))
    , mImplementation(std::move(implementation))
    , mParameters(std::move(parameters))
{
    const auto known = [](const std::vector<std::string> &names, const std::string &value) {
        return std::find(names.begin(), names.end(), value) != names.end();
    };
    if (!known(optimizerNames(), mName))
        throw io::InputError("--optimizer takes sgd, sgd_momentum, adam or adamw, not " + io::quoteForMessage(mName));
    if (!known(optimizerImplementationNames(), mImplementation))
        throw io::InputError("--optimizer-implementation takes foreach, fused or for_loop, not " +
                             io::quoteForMessage(mImplementation));
    mFirstMoments.resize(mParameters.size());
    mSecondMoments.resize(mParameters.size());
    mStepCounts.resize(mParameters.size());
}

void TracedOptimizer::step()
{
    torch::NoGradGuard noGradients;
    if (mName == "sgd")
        return; // parameter.add_(gradient, -lr): in place
    if (mName == "sgd_momentum")
        stepSgdMomentum();
    else
        stepAdam();
}

void TracedOptimizer::stepSgdMomentum()
{
    // The first step's buffer is a clone of the gradient, as torch.optim.SGD makes
    // it; later steps update it and the parameter in place.
    for (std::size_t i = 0; i < mParameters.size(); ++i) {
        const torch::Tensor &gradient = mParameters[i].grad();
        if (gradient.defined() && !mFirstMoments[i].defined())
            mFirstMoments[i] = torch::empty_like(gradient);
    }
}

void TracedOptimizer::stepAdam()
{
    // Adam.step() first gives every parameter its state (_init_group: on the first
    // step, the step count, then exp_avg and exp_avg_sq as zeros), then updates;
    // the decay, lerp_ and addcmul_ of the update are in place.
    std::vector<std::size_t> updated;
    for (std::size_t i = 0; i < mParameters.size(); ++i) {
        if (!mParameters[i].grad().defined())
            continue;
        if (!mFirstMoments[i].defined()) {
            if (mImplementation == "fused")
                mStepCounts[i] = torch::empty({}, mParameters[i].options().dtype(torch::kFloat32));
            mFirstMoments[i] = torch::empty_like(mParameters[i]);
            mSecondMoments[i] = torch::empty_like(mParameters[i]);
        }
        updated.push_back(i);
    }
    if (mImplementation == "foreach") {
        // torch._foreach_sqrt allocates every denominator before the update uses any;
        // the division, the epsilon and addcdiv_ are in place.
        std::vector<torch::Tensor> denominators;
        denominators.reserve(updated.size());
        for (const std::size_t i : updated)
            denominators.push_back(torch::empty_like(mSecondMoments[i]));
    } else if (mImplementation == "for_loop") {
        // denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps), one parameter at
        // a time: the square root goes once divided, the quotient once addcdiv_ used it.
        for (const std::size_t i : updated) {
            torch::Tensor root = torch::empty_like(mSecondMoments[i]);
            const torch::Tensor quotient = torch::empty_like(root);
            root.reset();
        }
    }
}

} // namespace gpumem::estimate
