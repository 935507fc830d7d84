// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::models {

class BiGruTransformerImpl;

// A copy of a trained BiGruTransformer's weights that predicts one row at a time
// on the CPU with Eigen. One row needs no padding and no autograd bookkeeping, so
// this answers in a small fraction of LibTorch's per-operation overhead: what a
// scheduler calling the model per job needs. Computes the same function as the
// LibTorch module (the tests hold the two within 1e-4). Thread-safe for concurrent
// predictions once built.
class EigenNetwork
{
  public:
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Vector = Eigen::VectorXf;

    // Copies the weights of network (in evaluation mode, on any device).
    explicit EigenNetwork(const BiGruTransformerImpl &network);

    // Returns the scaled prediction for one row: features [featureCount], layer types
    // [layers] (embedding rows) and layer fields [layers × fieldsPerLayer], row-major.
    float predict(const float *features, const std::int64_t *layerTypes, const float *layerFields,
                  std::int64_t layers) const;

  private:
    struct Linear
    {
        Matrix weight; // [out, in]
        Vector bias;
        Matrix apply(const Matrix &input) const; // input [tokens, in] → [tokens, out]
    };
    struct LayerNorm
    {
        Vector weight;
        Vector bias;
        Matrix apply(const Matrix &input) const;
    };
    struct Gru
    {
        Matrix inputWeight;  // [3·hidden, in], gates r, z, n
        Matrix hiddenWeight; // [3·hidden, hidden]
        Vector inputBias;
        Vector hiddenBias;
        Matrix run(const Matrix &input, bool reverse) const; // [tokens, in] → [tokens, hidden]
    };
    struct EncoderLayer
    {
        Linear inputProjection; // [3·d, d]: queries, keys, values
        Linear outputProjection;
        LayerNorm attentionNorm;
        LayerNorm feedForwardNorm;
        Linear expand;
        Linear contract;
    };

    Matrix runGru(const Matrix &tokens) const;
    Matrix attend(const EncoderLayer &layer, const Matrix &tokens) const;
    Matrix runEncoderLayer(const EncoderLayer &layer, const Matrix &tokens) const;

    std::string mArchitecture;
    std::string mPooling;
    bool mPreNorm = true;
    std::int64_t mHeads = 1;
    Matrix mFeatureWeight;                     // [features, d]
    Matrix mFeatureBias;                       // [feature tokens, d]
    std::vector<std::int64_t> mFeatureTokenOf; // token of each feature column; empty: one token per column
    Vector mClassToken;                        // empty unless pooling is cls
    Matrix mLayerTypeEmbedding;                // [types, d]; empty without layer tokens
    Linear mLayerFieldProjection;
    std::vector<Gru> mGruForward;
    std::vector<Gru> mGruBackward;
    Linear mGruProjection;
    std::vector<EncoderLayer> mEncoderLayers;
    LayerNorm mFinalNorm;
    Linear mAttentionScore;
    Linear mHeadHidden;
    Linear mHeadOutput;
};

} // namespace gpumem::models
