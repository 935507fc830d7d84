// SPDX-License-Identifier: GPL-3.0-or-later
// Decides how Eigen multiplies, so it must come before any Eigen header.
#include "ModelsConfig.h"
#ifdef GPUMEM_EIGEN_USES_BLAS
#define EIGEN_USE_BLAS
#endif

#include "models/EigenNetwork.h"

#include "models/BiGruTransformer.h"

#include <cmath>
#include <map>
#include <stdexcept>

namespace gpumem::models {

namespace {

using Matrix = EigenNetwork::Matrix;
using Vector = EigenNetwork::Vector;
using Parameters = std::map<std::string, torch::Tensor>;

const torch::Tensor &parameter(const Parameters &parameters, const std::string &name)
{
    const auto it = parameters.find(name);
    if (it == parameters.end())
        throw std::logic_error("EigenNetwork: the network has no parameter " + name);
    return it->second;
}

Matrix matrixOf(const torch::Tensor &tensor)
{
    const auto values = tensor.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    const auto rows = values.dim() == 1 ? 1 : values.size(0);
    return Eigen::Map<const Matrix>(values.data_ptr<float>(), rows, values.numel() / std::max<std::int64_t>(rows, 1));
}

Vector vectorOf(const torch::Tensor &tensor)
{
    const auto values = tensor.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    return Eigen::Map<const Vector>(values.data_ptr<float>(), values.numel());
}

Matrix gelu(Matrix values)
{
    return values.unaryExpr([](float x) { return 0.5F * x * (1.0F + std::erf(x * 0.70710678118654752F)); });
}

// Softmax of each row, shifted by its maximum for stability, as LibTorch does.
void softmaxRows(Matrix &scores)
{
    for (Eigen::Index row = 0; row < scores.rows(); ++row) {
        auto values = scores.row(row);
        values = (values.array() - values.maxCoeff()).exp().matrix();
        values /= values.sum();
    }
}

} // namespace

Matrix EigenNetwork::Linear::apply(const Matrix &input) const
{
    Matrix output = input * weight.transpose();
    output.rowwise() += bias.transpose();
    return output;
}

Matrix EigenNetwork::LayerNorm::apply(const Matrix &input) const
{
    Matrix output(input.rows(), input.cols());
    for (Eigen::Index row = 0; row < input.rows(); ++row) {
        const auto values = input.row(row).array();
        const float mean = values.mean();
        const float variance = (values - mean).square().mean();
        output.row(row) = ((values - mean) / std::sqrt(variance + 1e-5F)).matrix().cwiseProduct(weight.transpose()) +
                          bias.transpose();
    }
    return output;
}

Matrix EigenNetwork::Gru::run(const Matrix &input, bool reverse) const
{
    const Eigen::Index hidden = hiddenWeight.cols();
    const Eigen::Index steps = input.rows();
    Matrix inputGates = input * inputWeight.transpose(); // [tokens, 3·hidden]
    inputGates.rowwise() += inputBias.transpose();
    Matrix output(steps, hidden);
    Vector state = Vector::Zero(hidden);
    for (Eigen::Index i = 0; i < steps; ++i) {
        const Eigen::Index step = reverse ? steps - 1 - i : i;
        const Vector hiddenGates = hiddenWeight * state + hiddenBias; // [3·hidden]
        const auto gates = inputGates.row(step).transpose().array();  // [3·hidden]
        // Whole-vector expressions let Eigen vectorise the sigmoids and tanh.
        const Eigen::ArrayXf reset =
            (1.0F + (-(gates.head(hidden) + hiddenGates.head(hidden).array())).exp()).inverse();
        const Eigen::ArrayXf update =
            (1.0F + (-(gates.segment(hidden, hidden) + hiddenGates.segment(hidden, hidden).array())).exp()).inverse();
        const Eigen::ArrayXf candidate = (gates.tail(hidden) + reset * hiddenGates.tail(hidden).array()).tanh();
        state = ((1.0F - update) * candidate + update * state.array()).matrix();
        output.row(step) = state.transpose();
    }
    return output;
}

EigenNetwork::EigenNetwork(const BiGruTransformerImpl &network)
{
    const BiGruTransformerOptions &options = network.options();
    mArchitecture = options.architecture;
    mPooling = options.pooling;
    mPreNorm = options.preNorm;
    mHeads = options.heads;
    Parameters parameters;
    for (const auto &item : network.named_parameters())
        parameters.emplace(item.key(), item.value());
    const auto linear = [&](const std::string &name) {
        return Linear{matrixOf(parameter(parameters, name + ".weight")),
                      vectorOf(parameter(parameters, name + ".bias"))};
    };
    const auto layerNorm = [&](const std::string &name) {
        return LayerNorm{vectorOf(parameter(parameters, name + ".weight")),
                         vectorOf(parameter(parameters, name + ".bias"))};
    };

    mFeatureWeight = matrixOf(parameter(parameters, "feature_weight"));
    mFeatureBias = matrixOf(parameter(parameters, "feature_bias"));
    mFeatureTokenOf = options.featureTokenOf;
    if (parameters.count("class_token"))
        mClassToken = vectorOf(parameters.at("class_token"));
    if (options.usesLayerTokens()) {
        mLayerTypeEmbedding = matrixOf(parameter(parameters, "layer_type_embedding.weight"));
        mLayerFieldProjection = linear("layer_field_projection");
    }
    for (std::int64_t layer = 0; parameters.count("gru_forward." + std::to_string(layer) + ".weight_ih_l0"); ++layer) {
        for (auto [prefix, stack] :
             {std::pair{"gru_forward.", &mGruForward}, std::pair{"gru_backward.", &mGruBackward}}) {
            const std::string name = prefix + std::to_string(layer);
            stack->push_back(Gru{matrixOf(parameter(parameters, name + ".weight_ih_l0")),
                                 matrixOf(parameter(parameters, name + ".weight_hh_l0")),
                                 vectorOf(parameter(parameters, name + ".bias_ih_l0")),
                                 vectorOf(parameter(parameters, name + ".bias_hh_l0"))});
        }
    }
    if (!mGruForward.empty())
        mGruProjection = linear("gru_projection");
    for (std::int64_t layer = 0; parameters.count("encoder." + std::to_string(layer) + ".expand.weight"); ++layer) {
        const std::string name = "encoder." + std::to_string(layer) + '.';
        mEncoderLayers.push_back(EncoderLayer{Linear{matrixOf(parameter(parameters, name + "attention.in_proj_weight")),
                                                     vectorOf(parameter(parameters, name + "attention.in_proj_bias"))},
                                              linear(name + "attention.out_proj"), layerNorm(name + "attention_norm"),
                                              layerNorm(name + "feedforward_norm"), linear(name + "expand"),
                                              linear(name + "contract")});
    }
    mFinalNorm = layerNorm("final_norm");
    if (mPooling == "attention")
        mAttentionScore = linear("attention_score");
    mHeadHidden = linear("head.0");
    mHeadOutput = linear("head.3");
}

Matrix EigenNetwork::runGru(const Matrix &tokens) const
{
    Matrix input = tokens;
    for (std::size_t layer = 0; layer < mGruForward.size(); ++layer) {
        const Matrix forward = mGruForward[layer].run(input, false);
        const Matrix backward = mGruBackward[layer].run(input, true);
        Matrix both(input.rows(), forward.cols() + backward.cols());
        both << forward, backward;
        input = std::move(both); // dropout between layers is off at prediction time
    }
    return mGruProjection.apply(input);
}

Matrix EigenNetwork::attend(const EncoderLayer &layer, const Matrix &tokens) const
{
    const Eigen::Index width = tokens.cols();
    const Eigen::Index headWidth = width / mHeads;
    const Matrix projected = layer.inputProjection.apply(tokens); // [tokens, 3·d]
    Matrix combined(tokens.rows(), width);
    const float scale = 1.0F / std::sqrt(static_cast<float>(headWidth));
    for (std::int64_t head = 0; head < mHeads; ++head) {
        const auto queries = projected.middleCols(head * headWidth, headWidth);
        const auto keys = projected.middleCols(width + head * headWidth, headWidth);
        const auto values = projected.middleCols(2 * width + head * headWidth, headWidth);
        Matrix scores = (queries * scale) * keys.transpose(); // [tokens, tokens]
        softmaxRows(scores);
        combined.middleCols(head * headWidth, headWidth) = scores * values;
    }
    return layer.outputProjection.apply(combined);
}

Matrix EigenNetwork::runEncoderLayer(const EncoderLayer &layer, const Matrix &tokens) const
{
    const auto feedForward = [&layer](const Matrix &input) {
        return layer.contract.apply(gelu(layer.expand.apply(input)));
    };
    if (mPreNorm) {
        const Matrix attended = tokens + attend(layer, layer.attentionNorm.apply(tokens));
        return attended + feedForward(layer.feedForwardNorm.apply(attended));
    }
    const Matrix attended = layer.attentionNorm.apply(tokens + attend(layer, tokens));
    return layer.feedForwardNorm.apply(attended + feedForward(attended));
}

float EigenNetwork::predict(const float *features, const std::int64_t *layerTypes, const float *layerFields,
                            std::int64_t layers) const
{
    const Eigen::Index featureCount = mFeatureWeight.rows();
    const Eigen::Index featureTokens = mFeatureBias.rows();
    const Eigen::Index width = mFeatureWeight.cols();
    const bool withLayers = mLayerTypeEmbedding.size() > 0 && layers > 0;
    const Eigen::Index classTokens = mClassToken.size() > 0 ? 1 : 0;
    Matrix tokens(classTokens + featureTokens + (withLayers ? layers : 0), width);
    if (classTokens)
        tokens.row(0) = mClassToken.transpose();
    const Eigen::Map<const Vector> values(features, featureCount);
    if (mFeatureTokenOf.empty()) {
        tokens.middleRows(classTokens, featureCount) =
            mFeatureWeight.array().colwise() * values.array() + mFeatureBias.array();
    } else {
        // Same order of additions as LibTorch's index_add: columns in turn, then the bias.
        Matrix grouped = Matrix::Zero(featureTokens, width);
        for (Eigen::Index column = 0; column < featureCount; ++column)
            grouped.row(mFeatureTokenOf[static_cast<std::size_t>(column)]) +=
                values[column] * mFeatureWeight.row(column);
        tokens.middleRows(classTokens, featureTokens) = grouped + mFeatureBias;
    }
    if (withLayers) {
        const Eigen::Index fields = mLayerFieldProjection.weight.cols();
        const Matrix projected =
            mLayerFieldProjection.apply(Eigen::Map<const Matrix>(layerFields, layers, fields)); // [layers, d]
        for (Eigen::Index layer = 0; layer < layers; ++layer) {
            auto token = tokens.row(classTokens + featureTokens + layer);
            token = mLayerTypeEmbedding.row(layerTypes[layer]) + projected.row(layer);
            // Sinusoidal position, in float as the LibTorch module computes it.
            const float frequencyStep = static_cast<float>(-std::log(10000.0) / static_cast<double>(width));
            for (Eigen::Index pair = 0; pair < width / 2; ++pair) {
                const float angle = static_cast<float>(layer) * std::exp(static_cast<float>(2 * pair) * frequencyStep);
                token[2 * pair] += std::sin(angle);
                token[2 * pair + 1] += std::cos(angle);
            }
        }
    }

    if (mArchitecture == "bigru_transformer" || mArchitecture == "bigru_only")
        tokens = runGru(tokens);
    if (mArchitecture != "bigru_only")
        for (const auto &layer : mEncoderLayers)
            tokens = runEncoderLayer(layer, tokens);
    if (mArchitecture == "transformer_bigru")
        tokens = runGru(tokens);

    tokens = mFinalNorm.apply(tokens);
    Vector pooled;
    if (mPooling == "cls") {
        pooled = tokens.row(0).transpose();
    } else if (mPooling == "attention") {
        Matrix scores = mAttentionScore.apply(tokens).transpose(); // [1, tokens]
        softmaxRows(scores);
        pooled = (scores * tokens).transpose();
    } else {
        pooled = tokens.colwise().mean().transpose();
    }
    const Matrix hidden = gelu(mHeadHidden.apply(pooled.transpose()));
    return mHeadOutput.apply(hidden)(0, 0);
}

} // namespace gpumem::models
