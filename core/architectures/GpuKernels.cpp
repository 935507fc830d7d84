// SPDX-License-Identifier: GPL-3.0-or-later
#include "architectures/GpuKernels.h"

#include <torch/torch.h>

#include <cmath>

namespace gpumem::architectures::kernels {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

bool isHalfPrecision(const torch::Tensor &tensor)
{
    return tensor.scalar_type() == torch::kBFloat16 || tensor.scalar_type() == torch::kFloat16;
}

// [batch, heads, tokens, head_dim] as the fused kernels lay it out: tokens before heads.
torch::Tensor emptyTokensMajor(const torch::Tensor &like, std::int64_t heads)
{
    return torch::empty({like.size(0), like.size(2), heads, like.size(3)}, like.options()).transpose(1, 2);
}

// FlashAttention 2 (pytorch aten/src/ATen/native/transformers/cuda/flash_attn/flash_api.cpp,
// mha_fwd and mha_bwd): forward keeps the output and a float32 log-sum-exp per query;
// backward adds a float32 softmax_d per query row and a float32 dq accumulator, both
// padded to 128 queries, and for grouped heads the key and value gradients of every
// query head before they are summed into their group.
struct FlashAttention : torch::autograd::Function<FlashAttention>
{
    static torch::Tensor forward(AutogradContext *context, const torch::Tensor &query, const torch::Tensor &key,
                                 const torch::Tensor &value)
    {
        const torch::Tensor output = emptyTokensMajor(query, query.size(1)); // [b, h, s, d]
        const torch::Tensor logSumExp =
            torch::empty({query.size(0), query.size(1), query.size(2)}, query.options().dtype(torch::kFloat32));
        context->save_for_backward({query, key, value, output, logSumExp});
        return output;
    }

    static variable_list backward(AutogradContext *context, variable_list gradients)
    {
        const variable_list saved = context->get_saved_variables();
        const torch::Tensor &query = saved[0];
        const torch::Tensor &key = saved[1];
        const torch::Tensor &value = saved[2];
        const std::int64_t batch = query.size(0), heads = query.size(1), queries = query.size(2),
                           headDim = query.size(3);
        torch::Tensor queryGradient = emptyTokensMajor(query, heads);
        torch::Tensor keyGradient = emptyTokensMajor(key, key.size(1));
        torch::Tensor valueGradient = emptyTokensMajor(value, value.size(1));
        const auto floats = query.options().dtype(torch::kFloat32);
        torch::Tensor softmaxD = torch::empty({batch, heads, roundUp(queries, 128)}, floats);
        torch::Tensor queryAccumulator =
            torch::empty({batch, roundUp(queries, 128), heads, roundUp(headDim, 32)}, floats);
        if (key.size(1) != heads) {
            torch::Tensor keyExpanded = emptyTokensMajor(key, heads);
            torch::Tensor valueExpanded = emptyTokensMajor(value, heads);
        }
        gradients.clear();
        return {queryGradient, keyGradient, valueGradient};
    }
};

// The memory-efficient kernel (pytorch aten/src/ATen/native/transformers/cuda/
// attention.cu and attention_backward.cu): forward keeps the output and a float32
// log-sum-exp per query padded to 32 queries; backward allocates the three
// gradients and a float32 delta per query.
struct MemoryEfficientAttention : torch::autograd::Function<MemoryEfficientAttention>
{
    static torch::Tensor forward(AutogradContext *context, const torch::Tensor &query, const torch::Tensor &key,
                                 const torch::Tensor &value)
    {
        const torch::Tensor output = emptyTokensMajor(query, query.size(1));
        const torch::Tensor logSumExp = torch::empty({query.size(0), query.size(1), roundUp(query.size(2), 32)},
                                                     query.options().dtype(torch::kFloat32));
        context->save_for_backward({query, key, value, output, logSumExp});
        return output;
    }

    static variable_list backward(AutogradContext *context, variable_list gradients)
    {
        const variable_list saved = context->get_saved_variables();
        const torch::Tensor &query = saved[0];
        torch::Tensor queryGradient = torch::empty_like(query);
        torch::Tensor keyGradient = torch::empty_like(saved[1]);
        torch::Tensor valueGradient = torch::empty_like(saved[2]);
        torch::Tensor delta =
            torch::empty({query.size(0), query.size(1), query.size(2)}, query.options().dtype(torch::kFloat32));
        gradients.clear();
        return {queryGradient, keyGradient, valueGradient};
    }
};

// The math path of scaled_dot_product_attention (_scaled_dot_product_attention_math):
// query and key each scaled by the square root of the scale, grouped keys and values
// repeated to every head, the scores, a float mask built from a boolean lower
// triangle for is_causal, the softmax, which backward keeps, and its product with
// the values. Written with the operators, whose meta kernels allocate as CUDA's do.
torch::Tensor mathAttention(const torch::Tensor &query, const torch::Tensor &key, const torch::Tensor &value,
                            bool causal)
{
    const double rootScale = std::sqrt(1.0 / std::sqrt(static_cast<double>(query.size(3))));
    const std::int64_t groups = query.size(1) / key.size(1);
    const auto repeated = [&](const torch::Tensor &tensor) {
        if (groups == 1)
            return tensor;
        // repeat_interleave over the heads: one copy of [b, h, s, d].
        return tensor.unsqueeze(2)
            .expand({tensor.size(0), tensor.size(1), groups, tensor.size(2), tensor.size(3)})
            .reshape({tensor.size(0), query.size(1), tensor.size(2), tensor.size(3)});
    };
    const torch::Tensor scaledQuery = query * rootScale;
    torch::Tensor scores = torch::matmul(scaledQuery, repeated(key).transpose(-2, -1) * rootScale); // [b, h, q, k]
    if (causal) {
        const torch::Tensor lowerTriangle =
            torch::empty({query.size(2), key.size(2)}, query.options().dtype(torch::kBool));
        const torch::Tensor mask = torch::empty({query.size(2), key.size(2)}, query.options());
        scores.add_(mask);
    }
    const torch::Tensor probabilities = torch::softmax(scores, -1);
    return torch::matmul(probabilities, repeated(value));
}

struct Dropout : torch::autograd::Function<Dropout>
{
    static torch::Tensor forward(AutogradContext *context, const torch::Tensor &input)
    {
        torch::Tensor output = torch::empty_like(input);
        const torch::Tensor mask = torch::empty_like(input, input.options().dtype(torch::kBool));
        context->save_for_backward({mask});
        return output;
    }

    static variable_list backward(AutogradContext *, variable_list gradients)
    {
        return {torch::empty_like(gradients[0])};
    }
};

struct LayerNorm : torch::autograd::Function<LayerNorm>
{
    static torch::Tensor forward(AutogradContext *context, const torch::Tensor &input, const torch::Tensor &weight,
                                 const torch::Tensor &bias)
    {
        torch::Tensor output = torch::empty_like(input);
        const std::int64_t rows = input.numel() / input.size(-1);
        const torch::Tensor mean = torch::empty({rows}, input.options().dtype(torch::kFloat32));
        const torch::Tensor reciprocalDeviation = torch::empty({rows}, input.options().dtype(torch::kFloat32));
        context->save_for_backward({input, weight, bias, mean, reciprocalDeviation});
        return output;
    }

    static variable_list backward(AutogradContext *context, variable_list gradients)
    {
        const variable_list saved = context->get_saved_variables();
        torch::Tensor inputGradient = torch::empty_like(saved[0]);
        torch::Tensor weightGradient = saved[1].requires_grad() ? torch::empty_like(saved[1]) : torch::Tensor();
        torch::Tensor biasGradient = saved[2].requires_grad() ? torch::empty_like(saved[2]) : torch::Tensor();
        gradients.clear();
        return {inputGradient, weightGradient, biasGradient};
    }
};

struct Embedding : torch::autograd::Function<Embedding>
{
    static torch::Tensor forward(AutogradContext *context, const torch::Tensor &weight, const torch::Tensor &ids)
    {
        std::vector<std::int64_t> shape = ids.sizes().vec();
        shape.push_back(weight.size(1));
        torch::Tensor output = torch::empty(shape, weight.options()); // index_select's result
        context->save_for_backward({ids});
        context->saved_data["rows"] = weight.size(0);
        return output;
    }

    static variable_list backward(AutogradContext *context, variable_list gradients)
    {
        const torch::Tensor ids = context->get_saved_variables()[0];
        const torch::Tensor &gradient = gradients[0];
        const std::int64_t count = ids.numel();
        const std::int64_t features = gradient.size(-1);
        torch::Tensor weightGradient =
            torch::zeros({context->saved_data["rows"].toInt(), features}, gradient.options());
        {
            const auto longs = ids.options();
            const torch::Tensor sortedIds = torch::empty({count}, longs);
            const torch::Tensor positions = torch::empty({count}, longs);
            const torch::Tensor segmentOffsets = torch::empty({count}, longs);
            const torch::Tensor partialsPerSegment = torch::empty({count}, longs);
            const torch::Tensor partialOffsets = torch::empty({count}, longs);
            const torch::Tensor partialGradients = torch::empty({count, features}, gradient.options());
        }
        return {weightGradient, torch::Tensor()};
    }
};

struct GatherRoutedTokens : torch::autograd::Function<GatherRoutedTokens>
{
    static variable_list forward(AutogradContext *context, const torch::Tensor &hidden, const torch::Tensor &weights,
                                 std::int64_t tokens)
    {
        // torch.where's nonzero: the rows and slots, viewed apart and kept by the indexing.
        const torch::Tensor positions = torch::empty({tokens, 2}, hidden.options().dtype(torch::kInt64));
        torch::Tensor gathered = torch::empty({1, tokens, hidden.size(1)}, hidden.options()).view({tokens, -1});
        torch::Tensor chosen = torch::empty({tokens, 1}, weights.options());
        context->save_for_backward({positions});
        context->saved_data["rows"] = hidden.size(0);
        context->saved_data["slots"] = weights.size(1);
        return {gathered, chosen};
    }

    static variable_list backward(AutogradContext *context, variable_list gradients)
    {
        const std::int64_t rows = context->saved_data["rows"].toInt();
        torch::Tensor hiddenGradient = torch::zeros({rows, gradients[0].size(1)}, gradients[0].options());
        torch::Tensor weightsGradient =
            torch::zeros({rows, context->saved_data["slots"].toInt()}, gradients[1].options());
        return {hiddenGradient, weightsGradient, torch::Tensor()};
    }
};

struct IndexAddInPlace : torch::autograd::Function<IndexAddInPlace>
{
    static torch::Tensor forward(AutogradContext *context, torch::Tensor target, const torch::Tensor &source)
    {
        context->mark_dirty({target});
        context->saved_data["rows"] = source.size(0);
        return target;
    }

    static variable_list backward(AutogradContext *context, variable_list gradients)
    {
        const torch::Tensor &gradient = gradients[0];
        torch::Tensor sourceGradient =
            torch::empty({context->saved_data["rows"].toInt(), gradient.size(1)}, gradient.options());
        return {gradient, sourceGradient};
    }
};

} // namespace

RoutedTokens routedTokens(const torch::Tensor &hidden, const torch::Tensor &weights, std::int64_t tokens)
{
    const variable_list gathered = GatherRoutedTokens::apply(hidden, weights, tokens);
    return {gathered[0], gathered[1]};
}

torch::Tensor indexAddInPlace(torch::Tensor &target, const torch::Tensor &source)
{
    return IndexAddInPlace::apply(target, source);
}

std::int64_t roundUp(std::int64_t n, std::int64_t m)
{
    return (n + m - 1) / m * m;
}

AttentionKernel attentionKernel(const torch::Tensor &query, const torch::Tensor &key)
{
    if (isHalfPrecision(query))
        return AttentionKernel::Flash;
    return query.size(1) == key.size(1) ? AttentionKernel::MemoryEfficient : AttentionKernel::Math;
}

torch::Tensor scaledDotProductAttention(const torch::Tensor &query, const torch::Tensor &key,
                                        const torch::Tensor &value, bool causal)
{
    switch (attentionKernel(query, key)) {
    case AttentionKernel::Flash: return FlashAttention::apply(query, key, value);
    case AttentionKernel::MemoryEfficient: return MemoryEfficientAttention::apply(query, key, value);
    case AttentionKernel::Math: break;
    }
    return mathAttention(query, key, value, causal);
}

torch::Tensor dropout(const torch::Tensor &input, double probability)
{
    if (probability <= 0.0)
        return input;
    return Dropout::apply(input);
}

torch::Tensor layerNorm(const torch::Tensor &input, const torch::Tensor &weight, const torch::Tensor &bias)
{
    return LayerNorm::apply(input, weight, bias);
}

torch::Tensor embedding(const torch::Tensor &weight, const torch::Tensor &ids)
{
    return Embedding::apply(weight, ids);
}

} // namespace gpumem::architectures::kernels
