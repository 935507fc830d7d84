// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ForeachOptimizer.h"

#include "io/InputError.h"

#include <torch/torch.h>

#include <cmath>

namespace gpumem::estimate {

namespace {

// torch.optim's defaults.
constexpr double kSgdRate = 0.01;
constexpr double kMomentum = 0.9;
constexpr double kAdamRate = 1e-3;
constexpr double kBeta1 = 0.9;
constexpr double kBeta2 = 0.999;
constexpr double kEpsilon = 1e-8;
constexpr double kAdamWDecay = 0.01;

} // namespace

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
    ++mSteps;
    if (mName == "sgd" || mName == "sgd_momentum")
        stepSgd();
    else
        stepAdam();
}

void ForeachOptimizer::stepSgd()
{
    for (std::size_t i = 0; i < mParameters.size(); ++i) {
        torch::Tensor &parameter = mParameters[i];
        const torch::Tensor &gradient = parameter.grad();
        if (!gradient.defined())
            continue;
        if (mName == "sgd") {
            parameter.add_(gradient, -kSgdRate);
            continue;
        }
        // The first step's buffer is a clone of the gradient, as torch.optim.SGD makes it.
        if (!mFirstMoments[i].defined())
            mFirstMoments[i] = gradient.clone();
        else
            mFirstMoments[i].mul_(kMomentum).add_(gradient);
        parameter.add_(mFirstMoments[i], -kSgdRate);
    }
}

void ForeachOptimizer::stepAdam()
{
    const double correction1 = 1.0 - std::pow(kBeta1, static_cast<double>(mSteps));
    const double correction2 = 1.0 - std::pow(kBeta2, static_cast<double>(mSteps));
    std::vector<std::size_t> updated;
    for (std::size_t i = 0; i < mParameters.size(); ++i) {
        const torch::Tensor &gradient = mParameters[i].grad();
        if (!gradient.defined())
            continue;
        if (!mFirstMoments[i].defined()) {
            mFirstMoments[i] = torch::zeros_like(mParameters[i]);
            mSecondMoments[i] = torch::zeros_like(mParameters[i]);
        }
        if (mName == "adamw")
            mParameters[i].mul_(1.0 - kAdamRate * kAdamWDecay);
        mFirstMoments[i].lerp_(gradient, 1.0 - kBeta1);
        mSecondMoments[i].mul_(kBeta2).addcmul_(gradient, gradient, 1.0 - kBeta2);
        updated.push_back(i);
    }
    // torch._foreach_sqrt allocates every denominator before the update uses any.
    std::vector<torch::Tensor> denominators;
    denominators.reserve(updated.size());
    for (const std::size_t i : updated)
        denominators.push_back(mSecondMoments[i].sqrt());
    for (std::size_t k = 0; k < updated.size(); ++k) {
        denominators[k].div_(std::sqrt(correction2)).add_(kEpsilon);
        mParameters[updated[k]].addcdiv_(mFirstMoments[updated[k]], denominators[k], -kAdamRate / correction1);
    }
}

} // namespace gpumem::estimate
