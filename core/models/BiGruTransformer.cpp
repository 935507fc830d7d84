// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/BiGruTransformer.h"

#include "models/GruLayer.h"
#include "models/PackedAttention.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace gpumem::models {

namespace {

bool runsGru(const std::string &architecture)
{
    return architecture != "transformer_only";
}

bool runsEncoder(const std::string &architecture)
{
    return architecture != "bigru_only";
}

// Sinusoidal positions for layer tokens: order matters for a layer sequence, and
// attention alone cannot see it (the GRU can, but not in transformer_only).
torch::Tensor sinusoidalPositions(std::int64_t count, std::int64_t width, const torch::Device &device)
{
    auto options = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    const auto positions = torch::arange(count, options).unsqueeze(1); // [count, 1]
    const auto frequencies =
        torch::exp(torch::arange(0, width, 2, options) * (-std::log(10000.0) / width)); // [width/2]
    auto table = torch::zeros({count, width}, options);
    table.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)},
                     torch::sin(positions * frequencies));
    table.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
                     torch::cos(positions * frequencies));
    return table; // [count, width]
}

} // namespace

std::int64_t BiGruTransformerOptions::parameterCount() const
{
    // Mirrors the constructors below, module by module; test_BiGruTransformer compares it
    // with a built network's parameters for every architecture and option.
    const std::int64_t d = dModel;
    const auto linear = [](std::int64_t in, std::int64_t out) { return in * out + out; };
    std::int64_t count = featureCount * d + featureTokens() * d; // feature_weight, feature_bias
    if (pooling == "cls")
        count += d; // class_token
    if (usesLayerTokens())
        count += layerTypeCount * d + linear(fieldsPerLayer, d); // layer_type_embedding, layer_field_projection
    if (runsGru(architecture)) {
        for (std::int64_t layer = 0; layer < gruLayers; ++layer) {
            const std::int64_t input = layer == 0 ? d : 2 * gruHidden;
            // weight_ih, weight_hh, bias_ih and bias_hh of both directions
            count += 2 * (3 * gruHidden * input + 3 * gruHidden * gruHidden + 2 * 3 * gruHidden);
        }
        count += linear(2 * gruHidden, d); // gru_projection
    }
    if (runsEncoder(architecture))
        // attention (in_proj, out_proj), two layer norms, expand, contract
        count += encoderLayers *
                 (linear(d, 3 * d) + linear(d, d) + 2 * 2 * d + linear(d, feedforward) + linear(feedforward, d));
    count += 2 * d; // final_norm
    if (pooling == "attention")
        count += linear(d, 1); // attention_score
    return count + linear(d, headHidden) + linear(headHidden, 1);
}

EncoderLayerImpl::EncoderLayerImpl(std::int64_t dModel, std::int64_t heads, std::int64_t feedforward, double dropout,
                                   bool preNorm)
    : mPreNorm(preNorm)
{
    mAttention = register_module(
        "attention",
        torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(dModel, heads).dropout(dropout)));
    mAttentionNorm = register_module("attention_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dModel})));
    mFeedForwardNorm = register_module("feedforward_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dModel})));
    mExpand = register_module("expand", torch::nn::Linear(dModel, feedforward));
    mContract = register_module("contract", torch::nn::Linear(feedforward, dModel));
    mDropout = register_module("dropout", torch::nn::Dropout(dropout));
}

torch::Tensor EncoderLayerImpl::attend(const torch::Tensor &tokens, const torch::Tensor &padding)
{
    // The same function as mAttention->forward (its weights, scaling and dropout on the
    // attention weights), computed by packedAttention: on the CPU one fused kernel,
    // where LibTorch's batched products cost more per matrix than the arithmetic.
    const auto projected =
        torch::linear(tokens, mAttention->in_proj_weight, mAttention->in_proj_bias); // [batch, tokens, 3·d]
    const auto combined = packedAttention(projected, mAttention->options.num_heads(), padding,
                                          mAttention->options.dropout(), is_training()); // [batch, tokens, d_model]
    return mDropout->forward(mAttention->out_proj->forward(combined));                   // [batch, tokens, d_model]
}

torch::Tensor EncoderLayerImpl::feedForward(const torch::Tensor &tokens)
{
    auto hidden = mDropout->forward(torch::gelu(mExpand->forward(tokens))); // [batch, tokens, feedforward]
    return mDropout->forward(mContract->forward(hidden));                   // [batch, tokens, d_model]
}

torch::Tensor EncoderLayerImpl::forward(torch::Tensor tokens, const torch::Tensor &padding)
{
    if (mPreNorm) {
        tokens = tokens + attend(mAttentionNorm->forward(tokens), padding);
        return tokens + feedForward(mFeedForwardNorm->forward(tokens));
    }
    tokens = mAttentionNorm->forward(tokens + attend(tokens, padding));
    return mFeedForwardNorm->forward(tokens + feedForward(tokens));
}

BiGruTransformerImpl::BiGruTransformerImpl(const BiGruTransformerOptions &options)
    : mOptions(options)
{
    const std::int64_t d = options.dModel;
    if (d % options.heads != 0)
        throw std::invalid_argument("heads (" + std::to_string(options.heads) + ") must divide d_model (" +
                                    std::to_string(d) + ")");
    if (d % 2 != 0)
        throw std::invalid_argument("d_model must be even");
    mFeatureWeight = register_parameter("feature_weight", torch::randn({options.featureCount, d}) * 0.1);
    mFeatureBias = register_parameter("feature_bias", torch::randn({options.featureTokens(), d}) * 0.02);
    if (!options.featureTokenOf.empty()) {
        if (static_cast<std::int64_t>(options.featureTokenOf.size()) != options.featureCount)
            throw std::invalid_argument("featureTokenOf needs one token per feature column");
        // A buffer would land in the weights file; the grouping comes from the encoding instead.
        mFeatureTokenIndex = torch::tensor(options.featureTokenOf, torch::kInt64);
    }
    if (options.pooling == "cls")
        mClassToken = register_parameter("class_token", torch::randn({1, 1, d}) * 0.02);
    if (options.usesLayerTokens()) {
        mLayerTypeEmbedding = register_module("layer_type_embedding", torch::nn::Embedding(options.layerTypeCount, d));
        mLayerFieldProjection = register_module("layer_field_projection", torch::nn::Linear(options.fieldsPerLayer, d));
    }
    if (runsGru(options.architecture)) {
        mGruForward = register_module("gru_forward", torch::nn::ModuleList());
        mGruBackward = register_module("gru_backward", torch::nn::ModuleList());
        for (std::int64_t layer = 0; layer < options.gruLayers; ++layer) {
            const std::int64_t input = layer == 0 ? d : 2 * options.gruHidden;
            for (auto *stack : {&mGruForward, &mGruBackward})
                (*stack)->push_back(torch::nn::GRU(torch::nn::GRUOptions(input, options.gruHidden).batch_first(true)));
        }
        mGruDropout = register_module("gru_dropout", torch::nn::Dropout(options.gruDropout));
        mGruProjection = register_module("gru_projection", torch::nn::Linear(2 * options.gruHidden, d));
    }
    if (runsEncoder(options.architecture)) {
        mEncoderLayers = register_module("encoder", torch::nn::ModuleList());
        for (std::int64_t i = 0; i < options.encoderLayers; ++i)
            mEncoderLayers->push_back(
                EncoderLayer(d, options.heads, options.feedforward, options.dropout, options.preNorm));
    }
    mFinalNorm = register_module("final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
    if (options.pooling == "attention")
        mAttentionScore = register_module("attention_score", torch::nn::Linear(d, 1));
    mHead = register_module("head", torch::nn::Sequential(torch::nn::Linear(d, options.headHidden), torch::nn::GELU(),
                                                          torch::nn::Dropout(options.dropout),
                                                          torch::nn::Linear(options.headHidden, 1)));
}

torch::Tensor BiGruTransformerImpl::embed(const torch::Tensor &features, const torch::Tensor &layerTypes,
                                          const torch::Tensor &layerFields)
{
    // Each scalar becomes value × w_f: its own linear embedding; the bias tells the tokens apart.
    auto tokens = features.unsqueeze(-1) * mFeatureWeight; // [batch, features, d_model]
    if (mFeatureTokenIndex.defined()) {
        // A group's columns (e.g. one categorical's one-hot columns) add up into one token.
        const auto index = mFeatureTokenIndex.to(tokens.device());
        tokens = torch::zeros({tokens.size(0), mOptions.featureTokens(), mOptions.dModel}, tokens.options())
                     .index_add(1, index, tokens); // [batch, feature tokens, d_model]
    }
    tokens = tokens + mFeatureBias; // [batch, feature tokens, d_model]
    if (mOptions.usesLayerTokens() && layerTypes.defined() && layerTypes.size(1) > 0) {
        auto layers = mLayerTypeEmbedding->forward(layerTypes) +
                      mLayerFieldProjection->forward(layerFields); // [batch, layers, d_model]
        layers = layers + sinusoidalPositions(layerTypes.size(1), mOptions.dModel, layers.device());
        tokens = torch::cat({tokens, layers}, 1); // [batch, features + layers, d_model]
    }
    if (mClassToken.defined())
        tokens = torch::cat({mClassToken.expand({tokens.size(0), 1, mOptions.dModel}), tokens}, 1);
    return tokens; // [batch, tokens, d_model]
}

torch::Tensor BiGruTransformerImpl::runGru(const torch::Tensor &tokens, const torch::Tensor &reversal)
{
    // reversal: [batch, tokens] positions that reverse each row's real tokens and keep
    // padding in place; undefined when no row is padded.
    const auto reverse = [&reversal](const torch::Tensor &values) {
        if (!reversal.defined())
            return values.flip(1);
        return values.gather(1, reversal.unsqueeze(-1).expand_as(values));
    };
    torch::Tensor input = tokens; // [batch, tokens, d_model]
    for (std::size_t layer = 0; layer < mGruForward->size(); ++layer) {
        auto forward = runGruLayer(*mGruForward[layer]->as<torch::nn::GRU>(), input); // [batch, tokens, hidden]
        auto backward =
            reverse(runGruLayer(*mGruBackward[layer]->as<torch::nn::GRU>(), reverse(input))); // [batch, tokens, hidden]
        input = torch::cat({forward, backward}, -1); // [batch, tokens, 2·hidden]
        if (layer + 1 < mGruForward->size())
            input = mGruDropout->forward(input);
    }
    return mGruProjection->forward(input); // [batch, tokens, d_model]
}

torch::Tensor BiGruTransformerImpl::runEncoder(const torch::Tensor &tokens, const torch::Tensor &padding)
{
    auto encoded = tokens; // [batch, tokens, d_model]
    for (const auto &layer : *mEncoderLayers)
        encoded = layer->as<EncoderLayer>()->forward(encoded, padding);
    return encoded;
}

torch::Tensor BiGruTransformerImpl::pool(const torch::Tensor &tokens, const torch::Tensor &padding)
{
    if (mOptions.pooling == "cls")
        return tokens.select(1, 0); // [batch, d_model]
    if (!padding.defined()) {
        if (mOptions.pooling == "attention")
            return (torch::softmax(mAttentionScore->forward(tokens), 1) * tokens).sum(1); // [batch, d_model]
        return tokens.mean(1);                                                            // [batch, d_model]
    }
    const auto valid = padding.logical_not().unsqueeze(-1).to(tokens.dtype()); // [batch, tokens, 1]
    if (mOptions.pooling == "attention") {
        auto scores = mAttentionScore->forward(tokens).masked_fill(padding.unsqueeze(-1), -1e9); // [batch, tokens, 1]
        return (torch::softmax(scores, 1) * tokens).sum(1);                                      // [batch, d_model]
    }
    return (tokens * valid).sum(1) / valid.sum(1); // [batch, d_model]
}

torch::Tensor BiGruTransformerImpl::forward(const torch::Tensor &features, const torch::Tensor &layerTypes,
                                            const torch::Tensor &layerFields, const torch::Tensor &layerCounts)
{
    auto tokens = embed(features, layerTypes, layerFields); // [batch, tokens, d_model]
    const std::int64_t tokenCount = tokens.size(1);
    const std::int64_t fixedTokens = mOptions.featureTokens() + (mClassToken.defined() ? 1 : 0);
    const bool padded = tokenCount > fixedTokens && layerCounts.defined();

    torch::Tensor padding;  // [batch, tokens] bool, true at padding; undefined when nothing is padded
    torch::Tensor reversal; // [batch, tokens] int64: reverses each row's real tokens (see runGru)
    if (padded) {
        const auto counts = (layerCounts.to(torch::kCPU, torch::kInt64) + fixedTokens).unsqueeze(1); // [batch, 1]
        const auto positions = torch::arange(tokenCount, torch::kInt64).unsqueeze(0);                // [1, tokens]
        padding = positions.ge(counts).to(tokens.device());
        reversal = torch::where(positions.lt(counts), counts - 1 - positions, positions).to(tokens.device());
    }

    const std::string &architecture = mOptions.architecture;
    if (architecture == "bigru_transformer" || architecture == "bigru_only")
        tokens = runGru(tokens, reversal);
    if (runsEncoder(architecture))
        tokens = runEncoder(tokens, padding);
    if (architecture == "transformer_bigru")
        tokens = runGru(tokens, reversal);

    auto pooled = pool(mFinalNorm->forward(tokens), padding); // [batch, d_model]
    return mHead->forward(pooled).squeeze(-1);                // [batch]
}

} // namespace gpumem::models
