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
        throw io::InputError(io::parameter("optimizer") +
                             " takes sgd, sgd_momentum, adam, adamw, adamw_8bit or adafactor, not " +
                             io::quoteForMessage(mName));
    if (!known(optimizerImplementationNames(), mImplementation))
        throw io::InputError(io::parameter("optimizer_implementation") + " takes foreach, fused or for_loop, not " +
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
    else if (mName == "adamw_8bit")
        stepAdam8bit();
    else if (mName == "adafactor")
        stepAdafactor();
    else
        stepAdam();
}

void TracedOptimizer::clipGradients()
{
    // clip_grad_norm_ with foreach: one norm per gradient (_foreach_norm), their stack,
    // its norm, the clip coefficient and its clamp; the gradients are scaled in place.
    torch::NoGradGuard noGradients;
    std::vector<torch::Tensor> norms;
    for (const torch::Tensor &parameter : mParameters)
        if (parameter.grad().defined())
            norms.push_back(torch::empty({}, parameter.grad().options()));
    if (norms.empty())
        return;
    const auto floats = norms.front().options().dtype(torch::kFloat32);
    const torch::Tensor stacked = torch::empty({static_cast<std::int64_t>(norms.size())}, floats);
    const torch::Tensor total = torch::empty({}, floats);
    const torch::Tensor sum = torch::empty({}, floats);
    const torch::Tensor coefficient = torch::empty({}, floats);
    const torch::Tensor clamped = torch::empty({}, floats);
}

void TracedOptimizer::stepAdam8bit()
{
    // bitsandbytes' AdamW8bit: a tensor of at least 4,096 elements keeps both moments
    // as one byte per element with a float32 absmax per block of 256; smaller ones
    // keep float32 moments. One fused kernel updates in place.
    constexpr std::int64_t kSmallestQuantised = 4096;
    constexpr std::int64_t kBlock = 256;
    for (std::size_t i = 0; i < mParameters.size(); ++i) {
        const torch::Tensor &parameter = mParameters[i];
        if (!parameter.grad().defined() || mFirstMoments[i].defined())
            continue;
        if (parameter.numel() < kSmallestQuantised) {
            mFirstMoments[i] = torch::empty_like(parameter, parameter.options().dtype(torch::kFloat32));
            mSecondMoments[i] = torch::empty_like(parameter, parameter.options().dtype(torch::kFloat32));
            continue;
        }
        const std::int64_t blocks = (parameter.numel() + kBlock - 1) / kBlock;
        const auto floats = parameter.options().dtype(torch::kFloat32);
        mFirstMoments[i] = torch::empty_like(parameter, parameter.options().dtype(torch::kUInt8));
        mSecondMoments[i] = torch::empty_like(parameter, parameter.options().dtype(torch::kUInt8));
        mScales.push_back(torch::empty({blocks}, floats));
        mScales.push_back(torch::empty({blocks}, floats));
    }
}

void TracedOptimizer::stepAdafactor()
{
    // transformers' Adafactor (no first moment): a matrix keeps a float32 mean square
    // per row and per column, anything else one per element. Each parameter in turn: a
    // half-precision gradient and parameter copied to float32, the squared gradient plus
    // epsilon, the row and column means, then the update rebuilt from the factors
    // (_approx_sq_grad) before the squared gradient goes.
    for (std::size_t i = 0; i < mParameters.size(); ++i) {
        const torch::Tensor &parameter = mParameters[i];
        if (!parameter.grad().defined())
            continue;
        const auto floats = parameter.options().dtype(torch::kFloat32);
        const bool factored = parameter.dim() >= 2;
        const std::int64_t rows = factored ? parameter.numel() / parameter.size(-1) : 0;
        const std::int64_t columns = factored ? parameter.size(-1) : 0;
        if (!mSecondMoments[i].defined()) {
            if (factored) {
                mFirstMoments[i] = torch::empty({rows}, floats);     // exp_avg_sq_row
                mSecondMoments[i] = torch::empty({columns}, floats); // exp_avg_sq_col
            } else {
                mSecondMoments[i] = torch::empty_like(parameter, floats);
            }
        }
        const bool half = parameter.scalar_type() != torch::kFloat32;
        const torch::Tensor gradient = half ? torch::empty_like(parameter, floats) : torch::Tensor();
        const torch::Tensor master = half ? torch::empty_like(parameter, floats) : torch::Tensor();
        torch::Tensor squared = torch::empty_like(parameter, floats);
        torch::Tensor update = torch::empty_like(parameter, floats);
        squared.reset();
        if (factored) {
            {
                const torch::Tensor rowMean = torch::empty({rows}, floats);
            }
            {
                const torch::Tensor columnMean = torch::empty({columns}, floats);
            }
            const torch::Tensor rowFactor = torch::empty({rows, 1}, floats);
            const torch::Tensor columnFactor = torch::empty({1, columns}, floats);
            torch::Tensor approximated = torch::empty_like(parameter, floats);
            update = approximated;
        }
    }
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
