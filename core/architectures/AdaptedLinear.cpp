// SPDX-License-Identifier: GPL-3.0-or-later
#include "architectures/AdaptedLinear.h"

#include "architectures/GpuKernels.h"

#include <torch/torch.h>

#include <algorithm>
#include <cctype>

namespace gpumem::architectures {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The weights' blocks of NF4 with double quantisation (bitsandbytes' quantize_4bit
// with compress_statistics): one absmax per 64 weights, itself quantised to a byte
// with one float32 absmax per 256 of them.
constexpr std::int64_t kWeightsPerBlock = 64;
constexpr std::int64_t kBlocksPerNestedBlock = 256;

// dequantize_4bit: the float32 absmax of every block first, then the weight in the
// compute dtype; both transients, freed once the product is made.
torch::Tensor dequantisedWeight(const torch::Tensor &packed, std::int64_t out, std::int64_t in, torch::Dtype dtype)
{
    const std::int64_t blocks = (out * in + kWeightsPerBlock - 1) / kWeightsPerBlock;
    const torch::Tensor absmax = torch::empty({blocks}, packed.options().dtype(torch::kFloat32));
    return torch::empty({out, in}, packed.options().dtype(dtype));
}

// bitsandbytes' MatMul4Bit: forward multiplies by the dequantised weight and keeps
// only the packed weight; backward dequantises it again for the input's gradient.
struct Nf4MatMul : torch::autograd::Function<Nf4MatMul>
{
    static torch::Tensor forward(AutogradContext *context, const torch::Tensor &input, const torch::Tensor &packed,
                                 std::int64_t out, std::int64_t in)
    {
        torch::Tensor output;
        {
            const torch::Tensor weight = dequantisedWeight(packed, out, in, input.scalar_type());
            output = torch::matmul(input, weight.t());
        }
        context->save_for_backward({packed});
        context->saved_data["out"] = out;
        context->saved_data["in"] = in;
        return output;
    }

    static variable_list backward(AutogradContext *context, variable_list gradients)
    {
        const torch::Tensor packed = context->get_saved_variables()[0];
        const torch::Tensor &gradient = gradients[0];
        torch::Tensor inputGradient;
        {
            const torch::Tensor weight = dequantisedWeight(packed, context->saved_data["out"].toInt(),
                                                           context->saved_data["in"].toInt(), gradient.scalar_type());
            inputGradient = torch::matmul(gradient, weight);
        }
        return {inputGradient, torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

LinearOptions linearOptionsFor(const BuildOptions &options, const std::string &name, std::int64_t in, std::int64_t out,
                               bool bias, const torch::TensorOptions &weights)
{
    LinearOptions linear;
    linear.in = in;
    linear.out = out;
    linear.bias = bias;
    linear.weights = weights;
    linear.training = options.training;
    linear.frozen = options.lora.rank > 0;
    linear.nf4 = options.qlora;
    linear.computeDtype = options.weights == "float16" ? torch::kFloat16 : torch::kBFloat16;
    if (!options.autocast.empty())
        linear.cast = options.autocast == "float16" ? torch::kFloat16 : torch::kBFloat16;
    // peft reads the all-linear shorthand in any case; module names are matched exactly.
    const auto &targets = options.lora.targets;
    const bool targeted = std::any_of(targets.begin(), targets.end(), [&](const std::string &target) {
        std::string lowered = target;
        std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return target == name || lowered == "all-linear";
    });
    if (options.lora.rank > 0 && targeted) {
        linear.loraRank = options.lora.rank;
        const double alpha = options.loraAlpha > 0.0 ? options.loraAlpha : static_cast<double>(options.lora.rank);
        linear.loraScaling = alpha / static_cast<double>(options.lora.rank);
        linear.loraDropout = options.loraDropout;
    }
    return linear;
}

AdaptedLinearImpl::AdaptedLinearImpl(const LinearOptions &options)
    : mOptions(options)
{
    const auto &weights = options.weights;
    if (options.nf4) {
        const std::int64_t count = options.out * options.in;
        const std::int64_t blocks = (count + kWeightsPerBlock - 1) / kWeightsPerBlock;
        const auto bytes = weights.dtype(torch::kUInt8);
        const auto floats = weights.dtype(torch::kFloat32);
        // bitsandbytes keeps the packed bytes as a Parameter (Params4bit) that takes no gradient.
        mWeight = register_parameter("weight", torch::empty({(count + 1) / 2, 1}, bytes), false);
        mQuantisedAbsmax = register_buffer("absmax", torch::empty({blocks}, bytes));
        mNestedAbsmax = register_buffer(
            "nested_absmax", torch::empty({(blocks + kBlocksPerNestedBlock - 1) / kBlocksPerNestedBlock}, floats));
        mNestedCode = register_buffer("nested_code", torch::empty({256}, floats));
        mCode = register_buffer("code", torch::empty({16}, floats));
        mOffset = register_buffer("offset", torch::empty({}, floats));
    } else {
        mWeight = register_parameter("weight", torch::empty({options.out, options.in}, weights), !options.frozen);
    }
    if (options.bias)
        mBias = register_parameter("bias", torch::empty({options.out}, weights), !options.frozen);
    if (options.loraRank > 0) {
        // peft creates the adapters in float32 whatever the base's dtype.
        const auto floats = weights.dtype(torch::kFloat32);
        mLoraA = register_parameter("lora_A", torch::empty({options.loraRank, options.in}, floats));
        mLoraB = register_parameter("lora_B", torch::empty({options.out, options.loraRank}, floats));
    }
}

torch::Tensor AdaptedLinearImpl::baseForward(const torch::Tensor &input)
{
    if (mOptions.nf4) {
        // Linear4bit casts the input (and bias) to the compute dtype and the output
        // back to the input's dtype.
        const torch::Tensor computed = input.to(mOptions.computeDtype);
        torch::Tensor output = Nf4MatMul::apply(computed, mWeight, mOptions.out, mOptions.in);
        if (mBias.defined())
            output = output + mBias.to(mOptions.computeDtype);
        return output.to(input.scalar_type());
    }
    if (mOptions.cast) {
        // autocast: the input and, once per forward, the weight in the compute dtype.
        if (!mCastWeight.defined())
            mCastWeight = mWeight.to(*mOptions.cast);
        const torch::Tensor bias = mBias.defined() ? mBias.to(*mOptions.cast) : torch::Tensor();
        return torch::linear(input.to(*mOptions.cast), mCastWeight, bias);
    }
    return torch::linear(input, mWeight, mBias);
}

torch::Tensor AdaptedLinearImpl::forward(const torch::Tensor &input)
{
    torch::Tensor result = baseForward(input); // [..., out]
    if (mOptions.loraRank == 0)
        return result;
    const torch::ScalarType resultType = result.scalar_type();
    torch::Tensor adapted = input.to(torch::kFloat32);
    if (mOptions.training)
        adapted = kernels::dropout(adapted, mOptions.loraDropout);
    if (mOptions.cast) {
        adapted = torch::linear(adapted.to(*mOptions.cast), mLoraA.to(*mOptions.cast));
        adapted = torch::linear(adapted, mLoraB.to(*mOptions.cast));
    } else {
        adapted = torch::linear(torch::linear(adapted, mLoraA), mLoraB); // [..., rank] then [..., out]
    }
    result = result + adapted * mOptions.loraScaling;
    return result.to(resultType);
}

} // namespace gpumem::architectures
