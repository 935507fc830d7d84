// SPDX-License-Identifier: GPL-3.0-or-later
#include "architectures/TransformerLayer.h"

#include "architectures/GpuKernels.h"

#include <torch/torch.h>

#include <cmath>

namespace gpumem::architectures {

namespace {

// rotate_half: the halves of the last dimension swapped, the second negated.
torch::Tensor rotatedHalf(const torch::Tensor &input)
{
    const std::int64_t half = input.size(-1) / 2;
    return torch::cat({-input.narrow(-1, half, half), input.narrow(-1, 0, half)}, -1);
}

// apply_rotary_pos_emb on [batch, heads, tokens, head_dim].
torch::Tensor rotated(const torch::Tensor &input, const RotaryTables &rotary)
{
    const torch::Tensor cosine = rotary.cosine.unsqueeze(1);
    const torch::Tensor sine = rotary.sine.unsqueeze(1);
    return input * cosine + rotatedHalf(input) * sine;
}

} // namespace

double hiddenDropout(Family family)
{
    return family == Family::Llama ? 0.0 : 0.1;
}

torch::Tensor rmsNorm(const torch::Tensor &input, const torch::Tensor &weight, double epsilon)
{
    const torch::Tensor wide = input.to(torch::kFloat32);
    const torch::Tensor variance = wide.pow(2).mean(-1, true);
    const torch::Tensor normal = wide * torch::rsqrt(variance + epsilon);
    return weight * normal.to(input.scalar_type());
}

TransformerLayerImpl::TransformerLayerImpl(const ArchitectureConfig &config, const BuildOptions &options,
                                           const torch::TensorOptions &weights)
    : mConfig(config)
    , mOptions(options)
    , mWeights(weights)
{
    const std::int64_t hidden = config.hiddenSize;
    const std::int64_t queryWidth = config.attentionHeads * config.headDim;
    const std::int64_t keyValueWidth = config.keyValueHeads * config.headDim;
    const bool frozen = options.lora.rank > 0;
    const auto norm = [&](const std::string &name, std::int64_t size) {
        return register_parameter(name, torch::empty({size}, weights), !frozen);
    };
    switch (config.family) {
    case Family::Llama:
        mFirstNormWeight = norm("input_layernorm", hidden);
        mQuery = linear("q_proj", hidden, queryWidth, config.queryKeyValueBias);
        mKey = linear("k_proj", hidden, keyValueWidth, config.queryKeyValueBias);
        mValue = linear("v_proj", hidden, keyValueWidth, config.queryKeyValueBias);
        mOutput = linear("o_proj", queryWidth, hidden, config.outputProjectionBias);
        if (config.queryKeyNorm) {
            mQueryNormWeight = norm("q_norm", config.headDim);
            mKeyNormWeight = norm("k_norm", config.headDim);
        }
        mSecondNormWeight = norm("post_attention_layernorm", hidden);
        if (config.experts == 0) {
            mGate = linear("gate_proj", hidden, config.intermediateSize, config.mlpBias);
            mUp = linear("up_proj", hidden, config.intermediateSize, config.mlpBias);
            mDown = linear("down_proj", config.intermediateSize, hidden, config.mlpBias);
            break;
        }
        mRouter = linear("gate", hidden, config.experts, false);
        for (std::int64_t i = 0; i < config.experts; ++i) {
            const bool mixtral = config.modelType == "mixtral";
            const std::int64_t size = config.expertIntermediateSize;
            Expert expert{linear(mixtral ? "w1" : "gate_proj", hidden, size, false),
                          linear(mixtral ? "w3" : "up_proj", hidden, size, false),
                          linear(mixtral ? "w2" : "down_proj", size, hidden, false)};
            mExperts.push_back(expert);
        }
        if (const std::int64_t shared = config.sharedExpertIntermediateSize; shared > 0) {
            mGate = linear("gate_proj", hidden, shared, false);
            mUp = linear("up_proj", hidden, shared, false);
            mDown = linear("down_proj", shared, hidden, false);
            mSharedGate = linear("shared_expert_gate", hidden, 1, false);
        }
        break;
    case Family::Gpt2:
        mFirstNormWeight = norm("ln_1_weight", hidden);
        mFirstNormBias = norm("ln_1_bias", hidden);
        mQueryKeyValue = linear("c_attn", hidden, 3 * hidden, true);
        mOutput = linear("c_proj", hidden, hidden, true);
        mSecondNormWeight = norm("ln_2_weight", hidden);
        mSecondNormBias = norm("ln_2_bias", hidden);
        mUp = linear("c_fc", hidden, config.intermediateSize, true);
        mDown = linear("c_proj", config.intermediateSize, hidden, true);
        break;
    case Family::Bert:
        mQuery = linear("query", hidden, hidden, true);
        mKey = linear("key", hidden, hidden, true);
        mValue = linear("value", hidden, hidden, true);
        mOutput = linear("dense", hidden, hidden, true);
        mFirstNormWeight = norm("attention_layer_norm_weight", hidden);
        mFirstNormBias = norm("attention_layer_norm_bias", hidden);
        mUp = linear("dense", hidden, config.intermediateSize, true);
        mDown = linear("dense", config.intermediateSize, hidden, true);
        mSecondNormWeight = norm("output_layer_norm_weight", hidden);
        mSecondNormBias = norm("output_layer_norm_bias", hidden);
        break;
    }
}

AdaptedLinear TransformerLayerImpl::linear(const std::string &name, std::int64_t in, std::int64_t out, bool bias)
{
    const LinearOptions linear = linearOptionsFor(mOptions, name, in, out, bias, mWeights);
    // Names repeat within a layer (GPT-2's c_proj, BERT's dense): registered by position.
    mLinears.push_back(register_module(name + "_" + std::to_string(mLinears.size()), AdaptedLinear(linear)));
    return mLinears.back();
}

void TransformerLayerImpl::clearCastCaches()
{
    for (auto &linear : mLinears)
        linear->clearCastCache();
}

torch::Tensor TransformerLayerImpl::normalised(const torch::Tensor &hidden, const torch::Tensor &weight,
                                               const torch::Tensor &bias)
{
    if (mConfig.family == Family::Llama)
        return rmsNorm(hidden, weight, mConfig.normEpsilon);
    // autocast runs layer_norm in float32; the residual stream already is.
    return kernels::layerNorm(hidden, weight, bias);
}

torch::Tensor TransformerLayerImpl::activation(const torch::Tensor &input) const
{
    const std::string &name = mConfig.activation;
    if (name == "silu" || name == "swish")
        return torch::silu(input);
    if (name == "relu")
        return torch::relu(input);
    if (name == "gelu_pytorch_tanh")
        return torch::gelu(input, "tanh");
    if (name == "gelu_new") {
        // NewGELUActivation is written out in Python operators, each its own tensor.
        const double root = std::sqrt(2.0 / M_PI);
        return 0.5 * input * (1.0 + torch::tanh(root * (input + 0.044715 * torch::pow(input, 3.0))));
    }
    return torch::gelu(input);
}

torch::Tensor TransformerLayerImpl::attention(const torch::Tensor &hidden, const RotaryTables &rotary,
                                              KeyValueCache *cache)
{
    const std::int64_t batch = hidden.size(0);
    const std::int64_t tokens = hidden.size(1);
    const std::int64_t headDim = mConfig.headDim;
    torch::Tensor query, key, value;
    if (mQueryKeyValue) {
        const torch::Tensor fused = mQueryKeyValue(hidden); // [b, s, 3h]
        const auto parts = fused.split(mConfig.hiddenSize, 2);
        query = parts[0], key = parts[1], value = parts[2];
    } else {
        query = mQuery(hidden), key = mKey(hidden), value = mValue(hidden);
    }
    query = query.view({batch, tokens, -1, headDim});
    key = key.view({batch, tokens, -1, headDim});
    value = value.view({batch, tokens, -1, headDim}).transpose(1, 2);
    if (mQueryNormWeight.defined()) {
        query = rmsNorm(query, mQueryNormWeight, mConfig.normEpsilon);
        key = rmsNorm(key, mKeyNormWeight, mConfig.normEpsilon);
    }
    query = query.transpose(1, 2); // [b, h, s, d]
    key = key.transpose(1, 2);     // [b, kv, s, d]
    if (rotary.cosine.defined()) {
        query = rotated(query, rotary);
        key = rotated(key, rotary);
    }
    if (!mOptions.autocast.empty() && query.scalar_type() == torch::kFloat32) {
        // autocast runs scaled_dot_product_attention in the compute dtype.
        const auto dtype = mOptions.autocast == "float16" ? torch::kFloat16 : torch::kBFloat16;
        query = query.to(dtype), key = key.to(dtype), value = value.to(dtype);
    }
    if (cache != nullptr) {
        if (cache->keys.defined()) {
            cache->keys = torch::cat({cache->keys, key}, 2);
            cache->values = torch::cat({cache->values, value}, 2);
        } else {
            cache->keys = key, cache->values = value;
        }
        key = cache->keys, value = cache->values;
    }
    // A decoder is causal over its own tokens; one generated query attends to every key.
    const bool causal = mConfig.family != Family::Bert && tokens > 1;
    const torch::Tensor attended = kernels::scaledDotProductAttention(query, key, value, causal); // [b, h, s, d]
    const torch::Tensor merged = attended.transpose(1, 2).contiguous().reshape({batch, tokens, -1});
    torch::Tensor output = mOutput(merged);
    if (mConfig.family != Family::Llama && mOptions.training)
        output = kernels::dropout(output, hiddenDropout(mConfig.family));
    return output;
}

torch::Tensor TransformerLayerImpl::mixtureOfExperts(const torch::Tensor &hidden)
{
    const std::int64_t hiddenSize = hidden.size(-1);
    const torch::Tensor flat = hidden.view({-1, hiddenSize}); // [T, h]
    const std::int64_t tokens = flat.size(0);
    const std::int64_t experts = mConfig.experts;
    const std::int64_t chosen = mConfig.expertsPerToken;
    const torch::Tensor logits = mRouter(flat);                                     // [T, E]
    const torch::Tensor probabilities = torch::softmax(logits, 1, torch::kFloat32); // [T, E]
    torch::Tensor weights = std::get<0>(torch::topk(probabilities, chosen, -1));    // [T, k]
    if (mConfig.normaliseTopExperts)
        weights = weights / weights.sum(-1, true);
    weights = weights.to(flat.scalar_type());
    torch::Tensor combined = torch::zeros({tokens, hiddenSize}, flat.options());
    {
        // one_hot of the chosen experts, [T, k, E] int64, its sum per expert, the experts hit.
        const auto longs = flat.options().dtype(torch::kInt64);
        const torch::Tensor mask = torch::empty({tokens, chosen, experts}, longs);
        const torch::Tensor counts = torch::empty({experts}, longs);
        const torch::Tensor hit = torch::empty({experts}, flat.options().dtype(torch::kBool));
        const torch::Tensor hitExperts = torch::empty({experts, 1}, longs);
        // Each expert takes an equal share of every sample's tokens × k routings (so that
        // its share grows linearly with the batch).
        const std::int64_t samples = hidden.size(0);
        const std::int64_t routedPerSample = tokens / samples * chosen;
        for (std::int64_t e = 0; e < experts; ++e) {
            const std::int64_t count = samples * (routedPerSample / experts + (e < routedPerSample % experts ? 1 : 0));
            if (count == 0)
                continue;
            const kernels::RoutedTokens input = kernels::routedTokens(flat, weights, count);
            Expert &expert = mExperts[static_cast<std::size_t>(e)];
            const torch::Tensor output =
                expert.down(activation(expert.gate(input.hidden)) * expert.up(input.hidden)) * input.weights;
            combined = kernels::indexAddInPlace(combined, output.to(flat.scalar_type()));
        }
    }
    if (mSharedGate) {
        const torch::Tensor shared = mDown(activation(mGate(flat)) * mUp(flat));
        combined = combined + torch::sigmoid(mSharedGate(flat)) * shared;
    }
    return combined.view(hidden.sizes());
}

torch::Tensor TransformerLayerImpl::feedForward(const torch::Tensor &hidden)
{
    if (mRouter)
        return mixtureOfExperts(hidden);
    if (mGate) {
        return mDown(activation(mGate(hidden)) * mUp(hidden));
    }
    torch::Tensor output = mDown(activation(mUp(hidden)));
    if (mOptions.training)
        output = kernels::dropout(output, hiddenDropout(mConfig.family));
    return output;
}

torch::Tensor TransformerLayerImpl::forward(const torch::Tensor &hidden, const RotaryTables &rotary,
                                            KeyValueCache *cache)
{
    if (mConfig.family == Family::Bert) {
        // Post-normalised: LayerNorm(x + sublayer(x)).
        const torch::Tensor attended =
            normalised(attention(hidden, rotary, cache) + hidden, mFirstNormWeight, mFirstNormBias);
        return normalised(feedForward(attended) + attended, mSecondNormWeight, mSecondNormBias);
    }
    const torch::Tensor attended =
        hidden + attention(normalised(hidden, mFirstNormWeight, mFirstNormBias), rotary, cache);
    return attended + feedForward(normalised(attended, mSecondNormWeight, mSecondNormBias));
}

} // namespace gpumem::architectures
