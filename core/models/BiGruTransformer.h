// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// LibTorch module of the BiGRU-optimised Transformer. Include only from .cpp
// files: this header pulls in <torch/torch.h>.

#include <torch/torch.h>

#include <string>
#include <vector>

namespace gpumem::models {

// The sizes a BiGruTransformer is built with: the hyperparameters plus what the
// data decides (how many feature tokens, layer types and fields per layer).
struct BiGruTransformerOptions
{
    std::string architecture = "bigru_transformer"; // transformer_bigru, transformer_only, bigru_only
    std::int64_t featureCount = 1;                  // scalar features per row
    // The feature token each feature column adds to (0-based, ascending, every token
    // used); empty gives every column its own token.
    std::vector<std::int64_t> featureTokenOf;
    std::int64_t layerTypeCount = 0; // layer-type vocabulary incl. index 0 for unknown types; 0 = no layer tokens
    std::int64_t fieldsPerLayer = 0;
    std::int64_t dModel = 64;
    std::int64_t gruHidden = 32;
    std::int64_t gruLayers = 1;
    double gruDropout = 0.0;
    std::int64_t heads = 4;
    std::int64_t encoderLayers = 2;
    std::int64_t feedforward = 128;
    double dropout = 0.0;
    bool preNorm = true;
    std::string pooling = "mean"; // attention, cls
    std::int64_t headHidden = 64;

    bool usesLayerTokens() const { return layerTypeCount > 0; }
    // Returns how many tokens the features make.
    std::int64_t featureTokens() const { return featureTokenOf.empty() ? featureCount : featureTokenOf.back() + 1; }
    // Returns how many parameters (floats) the network of these options has, computed
    // without building it: a model folder's weights are checked against it before a
    // network that its model.json describes is allocated.
    std::int64_t parameterCount() const;
};

// One Transformer encoder layer with pre- or post-normalisation (LibTorch 1.13's
// C++ encoder layer has no pre-norm option), batch first: the network's tokens stay
// contiguous from layer to layer. Padding keys are masked exactly.
class EncoderLayerImpl : public torch::nn::Module
{
  public:
    EncoderLayerImpl(std::int64_t dModel, std::int64_t heads, std::int64_t feedforward, double dropout, bool preNorm);
    // tokens: [batch, tokens, d_model]; padding: [batch, tokens], true at padding, or undefined.
    torch::Tensor forward(torch::Tensor tokens, const torch::Tensor &padding);

  private:
    torch::Tensor attend(const torch::Tensor &tokens, const torch::Tensor &padding);
    torch::Tensor feedForward(const torch::Tensor &tokens);

    bool mPreNorm;
    torch::nn::MultiheadAttention mAttention{nullptr};
    torch::nn::LayerNorm mAttentionNorm{nullptr};
    torch::nn::LayerNorm mFeedForwardNorm{nullptr};
    torch::nn::Linear mExpand{nullptr};
    torch::nn::Linear mContract{nullptr};
    torch::nn::Dropout mDropout{nullptr};
};
TORCH_MODULE(EncoderLayer);

// Predicts one standardised target per row from feature tokens (one per feature
// column, or one per group of columns: token = Σ value·w + b over the group) and,
// optionally, one token per layer of the job's layer sequence:
//   token embedding → BiGRU → Transformer encoder → pooling → MLP head
// (or the ablations transformer_bigru, transformer_only, bigru_only). The
// backward GRU reads each row's own tokens reversed, padding kept at the end,
// and attention masks padding keys, so how a batch is padded never changes a
// row's prediction. (Packed sequences would do the same, about 4x slower on CPU.)
class BiGruTransformerImpl : public torch::nn::Module
{
  public:
    explicit BiGruTransformerImpl(const BiGruTransformerOptions &options);

    // features: [batch, featureCount] float; layerTypes: [batch, layers] int64 (0 where padded);
    // layerFields: [batch, layers, fieldsPerLayer] float; layerCounts: [batch] int64 on the CPU.
    // Without layer tokens pass undefined tensors for the last three. Returns [batch].
    torch::Tensor forward(const torch::Tensor &features, const torch::Tensor &layerTypes,
                          const torch::Tensor &layerFields, const torch::Tensor &layerCounts);

    const BiGruTransformerOptions &options() const { return mOptions; }

  private:
    torch::Tensor embed(const torch::Tensor &features, const torch::Tensor &layerTypes,
                        const torch::Tensor &layerFields);
    torch::Tensor runGru(const torch::Tensor &tokens, const torch::Tensor &reversal);
    torch::Tensor runEncoder(const torch::Tensor &tokens, const torch::Tensor &padding);
    torch::Tensor pool(const torch::Tensor &tokens, const torch::Tensor &padding);

    BiGruTransformerOptions mOptions;
    torch::Tensor mFeatureWeight;     // [featureCount, d_model]
    torch::Tensor mFeatureBias;       // [featureTokens, d_model]: also tells the tokens apart
    torch::Tensor mFeatureTokenIndex; // [featureCount] int64 (featureTokenOf); undefined: one token per column
    torch::Tensor mClassToken;        // [1, 1, d_model] when pooling is cls
    torch::nn::Embedding mLayerTypeEmbedding{nullptr};
    torch::nn::Linear mLayerFieldProjection{nullptr};
    torch::nn::ModuleList mGruForward{nullptr};  // one single-layer GRU per stacked layer
    torch::nn::ModuleList mGruBackward{nullptr}; // the same, run on each row's reversed tokens
    torch::nn::Dropout mGruDropout{nullptr};
    torch::nn::Linear mGruProjection{nullptr};
    torch::nn::ModuleList mEncoderLayers{nullptr};
    torch::nn::LayerNorm mFinalNorm{nullptr};
    torch::nn::Linear mAttentionScore{nullptr};
    torch::nn::Sequential mHead{nullptr};
};
TORCH_MODULE(BiGruTransformer);

} // namespace gpumem::models
