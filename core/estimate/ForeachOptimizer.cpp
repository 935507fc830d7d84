// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ForeachOptimizer.h"

#include "io/InputError.h"

#include <torch/torch.h>

namespace gpumem::estimate {

ForeachOptimizer::ForeachOptimizer(std::string name, std::vector<torch::Tensor> parameters)
    : mName(std::move(name))
    , mParameters(std::move(parameters))
{
    if (mName != "sgd" && mName != "sgd_momentum" && mName != "adam" && mName != "adamw")
        throw io::InputError("--optimizer takes sgd, sgd_momentum, adam or adamw, not " + io::quoteForMessage(mName));
    mFirstMoments.resize(mParameters.size());
    mSecondMoments.resize(mParameters.size());
}

void ForeachOptimizer::step()
{
    torch::NoGradGuard noGradients;
    if (mName == "sgd")
        return; // parameter.add_(gradient, -lr): in place
    if (mName == "sgd_momentum")
        stepSgdMomentum();
    else
        stepAdam();
}

void ForeachOptimizer::stepSgdMomentum()
{
    // The first step's buffer is a clone of the gradient, as torch.optim.SGD makes
    // it; later steps update it and the parameter in place.
    for (std::size_t i = 0; i < mParameters.size(); ++i) {
        const torch::Tensor &gradient = mParameters[i].grad();
        if (gradient.defined() && !mFirstMoments[i].defined())
            mFirstMoments[i] = torch::empty_like(gradient);
    }
}

void ForeachOptimizer::stepAdam()
{
    std::vector<std::size_t> updated;
    for (std::size_t i = 0; i < mParameters.size(); ++i) {
        if (!mParameters[i].grad().defined())
            continue;
        // exp_avg and exp_avg_sq (zeros on the first step); the decay, lerp_ and
        // addcmul_ that update them are in place.
        if (!mFirstMoments[i].defined()) {
            mFirstMoments[i] = torch::empty_like(mParameters[i]);
            mSecondMoments[i] = torch::empty_like(mParameters[i]);
        }
        updated.push_back(i);
    }
    // torch._foreach_sqrt allocates every denominator before the update uses any;
    // the division, the epsilon and addcdiv_ are in place.
    std::vector<torch::Tensor> denominators;
    denominators.reserve(updated.size());
    for (const std::size_t i : updated)
        denominators.push_back(torch::empty_like(mSecondMoments[i]));
}

} // namespace gpumem::estimate
