// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/PackedAttention.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace gpumem::models {

namespace {

// Why a CPU kernel of our own: LibTorch 1.13 runs a batched matmul on the CPU as one
// GEMM call per matrix, each behind three tensor selects. A job's few feature tokens
// (9 with the default preset) make each (row, head) matrix a few hundred
// multiply-adds, so that per-matrix cost, not the arithmetic, made attention 40% of a
// training step. Here a (row, head) pair is a few loops over contiguous floats, and no
// tensor is made per pair.

struct Shape
{
    std::int64_t batch;
    std::int64_t tokens;
    std::int64_t width; // d_model
    std::int64_t heads;
    std::int64_t headWidth;
    float scale; // 1/sqrt(headWidth), applied to the scores

    std::int64_t tokenStride() const { return 3 * width; } // between two tokens of the packed projection
    std::int64_t pairs() const { return batch * heads; }
};

Shape shapeOf(const torch::Tensor &projected, std::int64_t heads)
{
    if (projected.dim() != 3 || projected.size(2) % 3 != 0 || heads <= 0 || (projected.size(2) / 3) % heads != 0)
        throw std::invalid_argument(
            "attention needs a [batch, tokens, 3·d_model] projection with heads dividing d_model");
    const std::int64_t width = projected.size(2) / 3;
    const std::int64_t headWidth = width / heads;
    return {projected.size(0),
            projected.size(1),
            width,
            heads,
            headWidth,
            static_cast<float>(1.0 / std::sqrt(static_cast<double>(headWidth)))};
}

// Splits the (row, head) pairs over LibTorch's kernel threads, each chunk with its own
// scratch of `scratchFloats` floats; body(pair, scratch) for every pair.
template <typename Body> void forEachPair(const Shape &shape, std::int64_t scratchFloats, Body body)
{
    const std::int64_t work = shape.tokens * shape.tokens * shape.headWidth + 1;
    const std::int64_t grain = std::max<std::int64_t>(1, 32768 / work);
    at::parallel_for(0, shape.pairs(), grain, [&](std::int64_t begin, std::int64_t end) {
        std::vector<float> scratch(static_cast<std::size_t>(scratchFloats));
        for (std::int64_t pair = begin; pair < end; ++pair)
            body(pair, scratch.data());
    });
}

// Copies one head's columns of `count` tokens, `stride` apart, into [column][token].
void transposeHead(const float *tokens, std::int64_t stride, std::int64_t count, std::int64_t columns, float *byColumn)
{
    for (std::int64_t token = 0; token < count; ++token)
        for (std::int64_t column = 0; column < columns; ++column)
            byColumn[column * count + token] = tokens[token * stride + column];
}

// Softmax of one row of scores, padded keys excluded. A row with every key padded
// gets no weight anywhere rather than NaN.
void softmaxInPlace(float *scores, std::int64_t count, const bool *padding)
{
    float largest = -std::numeric_limits<float>::infinity();
    for (std::int64_t key = 0; key < count; ++key) {
        if (padding && padding[key])
            scores[key] = -std::numeric_limits<float>::infinity();
        largest = std::max(largest, scores[key]);
    }
    if (largest == -std::numeric_limits<float>::infinity()) {
        std::fill(scores, scores + count, 0.0f);
        return;
    }
    float total = 0.0f;
    for (std::int64_t key = 0; key < count; ++key) {
        scores[key] = std::exp(scores[key] - largest);
        total += scores[key];
    }
    const float inverse = 1.0f / total;
    for (std::int64_t key = 0; key < count; ++key)
        scores[key] *= inverse;
}

// Where one head's queries, keys and values start in a row of the packed projection
// (or of its gradient): token t's columns are at + t·tokenStride().
template <typename Float> struct HeadColumns
{
    Float *queries;
    Float *keys;
    Float *values;
};

template <typename Float> HeadColumns<Float> headColumns(const Shape &shape, std::int64_t head, Float *row)
{
    Float *queries = row + head * shape.headWidth;
    return {queries, queries + shape.width, queries + 2 * shape.width};
}

// One (row, head) pair forward: the softmax weights [tokens][tokens] into `weights`,
// the head's output columns of the row into `output` ([tokens][d_model]).
void attendPair(const Shape &shape, std::int64_t head, const float *row, const bool *padding, const float *keep,
                float *weights, float *output, float *keysByColumn)
{
    const std::int64_t count = shape.tokens;
    const std::int64_t columns = shape.headWidth;
    const std::int64_t stride = shape.tokenStride();
    const auto [queries, keys, values] = headColumns(shape, head, row);
    transposeHead(keys, stride, count, columns, keysByColumn);
    for (std::int64_t query = 0; query < count; ++query) {
        float *scores = weights + query * count;
        std::fill(scores, scores + count, 0.0f);
        for (std::int64_t column = 0; column < columns; ++column) {
            const float factor = queries[query * stride + column] * shape.scale;
            const float *keyColumn = keysByColumn + column * count;
            for (std::int64_t key = 0; key < count; ++key)
                scores[key] += factor * keyColumn[key];
        }
        softmaxInPlace(scores, count, padding);
        float *out = output + query * shape.width + head * columns;
        std::fill(out, out + columns, 0.0f);
        for (std::int64_t key = 0; key < count; ++key) {
            const float weight = keep ? scores[key] * keep[query * count + key] : scores[key];
            if (weight == 0.0f)
                continue;
            const float *value = values + key * stride;
            for (std::int64_t column = 0; column < columns; ++column)
                out[column] += weight * value[column];
        }
    }
}

// One (row, head) pair backward: adds the gradients of the row's queries, keys and
// values of this head into `gradient` (the row's [tokens][3·d_model], zeroed before).
void backPropagatePair(const Shape &shape, std::int64_t head, const float *row, const float *keep, const float *weights,
                       const float *outputGradient, float *gradient, float *scratch)
{
    const std::int64_t count = shape.tokens;
    const std::int64_t columns = shape.headWidth;
    const std::int64_t stride = shape.tokenStride();
    const auto [queries, keys, values] = headColumns(shape, head, row);
    const auto [queryGradient, keyGradient, valueGradient] = headColumns(shape, head, gradient);
    float *valuesByColumn = scratch;                   // [columns][count]
    float *weightGradient = scratch + columns * count; // [count]
    transposeHead(values, stride, count, columns, valuesByColumn);
    for (std::int64_t query = 0; query < count; ++query) {
        const float *weight = weights + query * count;
        const float *kept = keep ? keep + query * count : nullptr;
        const float *outGradient = outputGradient + query * shape.width + head * columns;
        std::fill(weightGradient, weightGradient + count, 0.0f);
        for (std::int64_t column = 0; column < columns; ++column) {
            const float factor = outGradient[column];
            const float *valueColumn = valuesByColumn + column * count;
            for (std::int64_t key = 0; key < count; ++key)
                weightGradient[key] += factor * valueColumn[key];
        }
        for (std::int64_t key = 0; key < count; ++key) {
            const float applied = kept ? weight[key] * kept[key] : weight[key];
            if (applied == 0.0f)
                continue;
            float *valueRow = valueGradient + key * stride;
            for (std::int64_t column = 0; column < columns; ++column)
                valueRow[column] += applied * outGradient[column];
        }
        if (kept)
            for (std::int64_t key = 0; key < count; ++key)
                weightGradient[key] *= kept[key];
        // Through the softmax: dS = W ⊙ (dW − Σ W·dW), times the scores' scale.
        float expected = 0.0f;
        for (std::int64_t key = 0; key < count; ++key)
            expected += weight[key] * weightGradient[key];
        const float *queryRow = queries + query * stride;
        float *queryRowGradient = queryGradient + query * stride;
        for (std::int64_t key = 0; key < count; ++key) {
            const float scoreGradient = weight[key] * (weightGradient[key] - expected) * shape.scale;
            if (scoreGradient == 0.0f)
                continue;
            const float *keyRow = keys + key * stride;
            float *keyRowGradient = keyGradient + key * stride;
            for (std::int64_t column = 0; column < columns; ++column) {
                queryRowGradient[column] += scoreGradient * keyRow[column];
                keyRowGradient[column] += scoreGradient * queryRow[column];
            }
        }
    }
}

class FusedAttentionFunction : public torch::autograd::Function<FusedAttentionFunction>
{
  public:
    static torch::Tensor forward(torch::autograd::AutogradContext *context, const torch::Tensor &projected,
                                 std::int64_t heads, const c10::optional<torch::Tensor> &padding,
                                 const c10::optional<torch::Tensor> &keep)
    {
        const Shape shape = shapeOf(projected, heads);
        auto output = torch::empty({shape.batch, shape.tokens, shape.width}, projected.options());
        auto weights = torch::empty({shape.batch, heads, shape.tokens, shape.tokens}, projected.options());
        const float *input = projected.data_ptr<float>();
        const bool *padded = padding ? padding->data_ptr<bool>() : nullptr;
        const float *kept = keep ? keep->data_ptr<float>() : nullptr;
        float *weightData = weights.data_ptr<float>();
        float *outputData = output.data_ptr<float>();
        const std::int64_t rowSize = shape.tokens * shape.tokenStride();
        const std::int64_t pairSize = shape.tokens * shape.tokens;
        forEachPair(shape, shape.headWidth * shape.tokens, [&](std::int64_t pair, float *scratch) {
            const std::int64_t row = pair / heads;
            attendPair(shape, pair % heads, input + row * rowSize, padded ? padded + row * shape.tokens : nullptr,
                       kept ? kept + pair * pairSize : nullptr, weightData + pair * pairSize,
                       outputData + row * shape.tokens * shape.width, scratch);
        });
        context->save_for_backward({projected, weights});
        context->saved_data["heads"] = heads;
        if (keep)
            context->saved_data["keep"] = *keep;
        return output;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext *context,
                                                 torch::autograd::tensor_list outputGradients)
    {
        const auto saved = context->get_saved_variables();
        const auto &projected = saved[0];
        const auto &weights = saved[1];
        const std::int64_t heads = context->saved_data["heads"].toInt();
        const Shape shape = shapeOf(projected, heads);
        const auto outputGradient = outputGradients[0].contiguous();
        auto gradient = torch::zeros_like(projected);
        const float *input = projected.data_ptr<float>();
        const auto keep = context->saved_data.find("keep");
        const torch::Tensor keepMask = keep == context->saved_data.end() ? torch::Tensor() : keep->second.toTensor();
        const float *kept = keepMask.defined() ? keepMask.data_ptr<float>() : nullptr;
        const float *weightData = weights.data_ptr<float>();
        const float *outGradient = outputGradient.data_ptr<float>();
        float *gradientData = gradient.data_ptr<float>();
        const std::int64_t rowSize = shape.tokens * shape.tokenStride();
        const std::int64_t pairSize = shape.tokens * shape.tokens;
        forEachPair(shape, (shape.headWidth + 1) * shape.tokens, [&](std::int64_t pair, float *scratch) {
            const std::int64_t row = pair / heads;
            backPropagatePair(shape, pair % heads, input + row * rowSize, kept ? kept + pair * pairSize : nullptr,
                              weightData + pair * pairSize, outGradient + row * shape.tokens * shape.width,
                              gradientData + row * rowSize, scratch);
        });
        return {gradient, torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

torch::Tensor attentionDropoutMask(const torch::Tensor &projected, std::int64_t heads, double dropout, bool training)
{
    if (!training || dropout <= 0.0)
        return {};
    // Dropout of ones is exactly the mask: 0, or 1/(1-p) where a weight is kept.
    torch::NoGradGuard noGradients;
    const auto ones = torch::ones({projected.size(0), heads, projected.size(1), projected.size(1)},
                                  projected.options().requires_grad(false));
    return torch::dropout(ones, dropout, true);
}

torch::Tensor tensorAttention(const torch::Tensor &projected, std::int64_t heads, const torch::Tensor &padding,
                              const torch::Tensor &keep)
{
    const Shape shape = shapeOf(projected, heads);
    const auto perHead = [&](std::int64_t part) {
        return projected.narrow(2, part * shape.width, shape.width)
            .reshape({shape.batch, shape.tokens, heads, shape.headWidth})
            .transpose(1, 2); // [batch, heads, tokens, head width]
    };
    auto scores = torch::matmul(perHead(0) * shape.scale, perHead(1).transpose(2, 3)); // [batch, heads, tokens, tokens]
    if (padding.defined())
        scores = scores.masked_fill(padding.view({shape.batch, 1, 1, shape.tokens}),
                                    -std::numeric_limits<float>::infinity());
    auto weights = torch::softmax(scores, -1);
    if (keep.defined())
        weights = weights * keep;
    return torch::matmul(weights, perHead(2)).transpose(1, 2).reshape({shape.batch, shape.tokens, shape.width});
}

torch::Tensor fusedCpuAttention(const torch::Tensor &projected, std::int64_t heads, const torch::Tensor &padding,
                                const torch::Tensor &keep)
{
    if (!projected.device().is_cpu() || projected.scalar_type() != torch::kFloat32)
        throw std::invalid_argument("the fused attention kernel runs on float32 CPU tensors only");
    const Shape shape = shapeOf(projected, heads);
    if (padding.defined() && padding.sizes() != torch::IntArrayRef{shape.batch, shape.tokens})
        throw std::invalid_argument("attention padding must be [batch, tokens]");
    if (keep.defined() && keep.sizes() != torch::IntArrayRef{shape.batch, heads, shape.tokens, shape.tokens})
        throw std::invalid_argument("the attention dropout mask must be [batch, heads, tokens, tokens]");
    const auto cpuMask = [](const torch::Tensor &tensor, torch::ScalarType type) -> c10::optional<torch::Tensor> {
        if (!tensor.defined())
            return c10::nullopt;
        return tensor.to(type).contiguous();
    };
    return FusedAttentionFunction::apply(projected.contiguous(), heads, cpuMask(padding, torch::kBool),
                                         cpuMask(keep, torch::kFloat32));
}

torch::Tensor packedAttention(const torch::Tensor &projected, std::int64_t heads, const torch::Tensor &padding,
                              double dropout, bool training)
{
    const auto keep = attentionDropoutMask(projected, heads, dropout, training);
    if (projected.device().is_cpu() && projected.scalar_type() == torch::kFloat32)
        return fusedCpuAttention(projected, heads, padding, keep);
    return tensorAttention(projected, heads, padding, keep);
}

} // namespace gpumem::models
