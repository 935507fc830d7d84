// SPDX-License-Identifier: GPL-3.0-or-later
#include "architectures/LanguageModel.h"

#include "architectures/Checkpoint.h"
#include "architectures/GpuKernels.h"

#include <torch/torch.h>

namespace gpumem::architectures {

torch::TensorOptions metaOptions(torch::Dtype dtype)
{
    return torch::TensorOptions().device(torch::kMeta).dtype(dtype);
}

torch::Dtype dtypeNamed(const std::string &name)
{
    if (name == "bfloat16")
        return torch::kBFloat16;
    if (name == "float16")
        return torch::kFloat16;
    return torch::kFloat32;
}

LanguageModelImpl::LanguageModelImpl(const ArchitectureConfig &config, const BuildOptions &options)
    : mConfig(config)
    , mOptions(options)
{
    // autocast keeps float32 master weights; QLoRA's non-quantised weights are float32
    // once prepare_model_for_kbit_training has cast them.
    const bool floatWeights = !options.autocast.empty() || options.qlora;
    mWeights = metaOptions(floatWeights ? torch::kFloat32 : dtypeNamed(options.weights));
    const bool trained = options.lora.rank == 0;
    const auto weight = [&](const std::string &name, std::vector<std::int64_t> shape) {
        return register_parameter(name, torch::empty(shape, mWeights), trained);
    };
    const std::int64_t hidden = config.hiddenSize;
    mTokenEmbedding = weight("embed_tokens", {config.vocabulary, hidden});
    if (config.family == Family::Gpt2)
        mPositionEmbedding = weight("wpe", {config.maxPositions, hidden});
    if (config.family == Family::Bert) {
        mPositionEmbedding = weight("position_embeddings", {config.maxPositions, hidden});
        mTypeEmbedding = weight("token_type_embeddings", {config.typeVocabulary, hidden});
        mEmbeddingNormWeight = weight("embeddings_layer_norm_weight", {hidden});
        mEmbeddingNormBias = weight("embeddings_layer_norm_bias", {hidden});
        // BertEmbeddings' position_ids and token_type_ids buffers.
        mTypeIds =
            register_buffer("token_type_ids", torch::empty({1, config.maxPositions}, metaOptions(torch::kInt64)));
        register_buffer("position_ids", torch::empty({1, config.maxPositions}, metaOptions(torch::kInt64)));
    }
    if (config.family == Family::Llama)
        mInverseFrequencies =
            register_buffer("inv_freq", torch::empty({config.headDim / 2}, metaOptions(torch::kFloat32)));
    for (std::int64_t i = 0; i < config.layers; ++i)
        mLayers.push_back(register_module("layer_" + std::to_string(i), TransformerLayer(config, options, mWeights)));
    if (config.family == Family::Llama) {
        mFinalNormWeight = weight("norm", {hidden});
    } else if (config.family == Family::Gpt2) {
        mFinalNormWeight = weight("ln_f_weight", {hidden});
        mFinalNormBias = weight("ln_f_bias", {hidden});
    } else {
        // The prediction head's transform is a "dense" too, which peft's targets reach.
        LinearOptions transform = linearOptionsFor(options, "dense", hidden, hidden, true, mWeights);
        transform.nf4 = false; // bitsandbytes quantises the encoder's layers, not the head
        transform.frozen = !trained;
        mTransform = register_module("transform", AdaptedLinear(transform));
        mTransformNormWeight = weight("transform_layer_norm_weight", {hidden});
        mTransformNormBias = weight("transform_layer_norm_bias", {hidden});
        mDecoderBias = weight("decoder_bias", {config.vocabulary});
    }
    if (!config.tiedEmbeddings)
        mHeadWeight = weight("lm_head", {config.vocabulary, hidden});
}

std::vector<torch::Tensor> LanguageModelImpl::trainableParameters() const
{
    std::vector<torch::Tensor> trainable;
    for (const torch::Tensor &parameter : parameters())
        if (parameter.requires_grad())
            trainable.push_back(parameter);
    return trainable;
}

RotaryTables LanguageModelImpl::rotaryTables(std::int64_t tokens, torch::Dtype dtype) const
{
    // LlamaRotaryEmbedding, in float32 with autocast off: the positions as floats, their
    // product with the inverse frequencies, the angles twice over, cosine and sine
    // (each scaled by attention_scaling), cast to the hidden states' dtype.
    const auto floats = metaOptions(torch::kFloat32);
    const torch::Tensor positions = torch::empty({1, 1, tokens}, floats);
    const torch::Tensor frequencies =
        torch::matmul(mInverseFrequencies.view({1, -1, 1}), positions).transpose(1, 2); // [1, s, d/2]
    const torch::Tensor angles = torch::cat({frequencies, frequencies}, -1);            // [1, s, d]
    RotaryTables tables{angles.cos() * 1.0, angles.sin() * 1.0};
    tables.cosine = tables.cosine.to(dtype);
    tables.sine = tables.sine.to(dtype);
    return tables;
}

torch::Tensor LanguageModelImpl::embedded(const torch::Tensor &ids)
{
    const std::int64_t tokens = ids.size(1);
    torch::Tensor hidden = kernels::embedding(mTokenEmbedding, ids); // [b, s, hidden]
    if (mConfig.family == Family::Gpt2) {
        const torch::Tensor positions = torch::empty({1, tokens}, metaOptions(torch::kInt64));
        hidden = hidden + kernels::embedding(mPositionEmbedding, positions);
        if (mOptions.training)
            hidden = kernels::dropout(hidden, hiddenDropout(mConfig.family));
    } else if (mConfig.family == Family::Bert) {
        const torch::Tensor types = mTypeIds.narrow(1, 0, tokens).expand({ids.size(0), tokens});
        const torch::Tensor positions = torch::empty({1, tokens}, metaOptions(torch::kInt64));
        hidden = hidden + kernels::embedding(mTypeEmbedding, types);
        hidden = hidden + kernels::embedding(mPositionEmbedding, positions);
        hidden = kernels::layerNorm(hidden, mEmbeddingNormWeight, mEmbeddingNormBias);
        if (mOptions.training)
            hidden = kernels::dropout(hidden, hiddenDropout(mConfig.family));
    }
    // Reentrant checkpointing needs an input that takes gradients to reach the
    // adapters: transformers' enable_input_require_grads marks the embeddings' output.
    if (mOptions.gradientCheckpointing && mOptions.training && !hidden.requires_grad() && torch::GradMode::is_enabled())
        hidden.requires_grad_(true);
    return hidden;
}

torch::Tensor LanguageModelImpl::hiddenStates(const torch::Tensor &ids, std::vector<KeyValueCache> *caches)
{
    torch::Tensor hidden = embedded(ids);
    RotaryTables rotary;
    if (mConfig.family == Family::Llama)
        rotary = rotaryTables(ids.size(1), hidden.scalar_type());
    const bool checkpointing = mOptions.gradientCheckpointing && mOptions.training && caches == nullptr;
    mLayerCalls.clear();
    for (std::size_t i = 0; i < mLayers.size(); ++i) {
        if (!checkpointing) {
            hidden = mLayers[i]->forward(hidden, rotary, caches != nullptr ? &(*caches)[i] : nullptr);
            continue;
        }
        TransformerLayer layer = mLayers[i];
        mLayerCalls.emplace_back([layer, rotary](const torch::Tensor &input) mutable {
            torch::Tensor output = layer->forward(input, rotary);
            // The recomputation in backward is its own autocast region.
            if (torch::GradMode::is_enabled())
                layer->clearCastCaches();
            return output;
        });
    }
    for (const auto &call : mLayerCalls)
        hidden = checkpointed(call, hidden);
    if (mConfig.family == Family::Llama)
        return rmsNorm(hidden, mFinalNormWeight, mConfig.normEpsilon);
    if (mConfig.family == Family::Gpt2)
        return kernels::layerNorm(hidden, mFinalNormWeight, mFinalNormBias);
    return hidden;
}

torch::Tensor LanguageModelImpl::logits(const torch::Tensor &hidden)
{
    torch::Tensor input = hidden;
    if (mConfig.family == Family::Bert) {
        input = mTransform(input);
        input = torch::gelu(input);
        input = kernels::layerNorm(input, mTransformNormWeight, mTransformNormBias);
    }
    const torch::Tensor &weight = mHeadWeight.defined() ? mHeadWeight : mTokenEmbedding;
    if (!mOptions.autocast.empty()) {
        const torch::Dtype dtype = dtypeNamed(mOptions.autocast);
        const torch::Tensor bias = mDecoderBias.defined() ? mDecoderBias.to(dtype) : torch::Tensor();
        return torch::linear(input.to(dtype), weight.to(dtype), bias);
    }
    return torch::linear(input, weight, mDecoderBias); // [b, s, vocabulary]
}

void LanguageModelImpl::clearCastCaches()
{
    for (auto &layer : mLayers)
        layer->clearCastCaches();
    if (mTransform)
        mTransform->clearCastCache();
}

torch::Tensor LanguageModelImpl::trainingLoss(const torch::Tensor &ids, const torch::Tensor &labels)
{
    const torch::Tensor hidden = hiddenStates(ids, nullptr);
    const torch::Tensor scores = logits(hidden); // [b, s, vocabulary]
    const auto vocabulary = mConfig.vocabulary;
    torch::Tensor loss;
    if (mConfig.family == Family::Bert) {
        // BertForMaskedLM: cross-entropy over every position (unmasked ones are ignored
        // by their label); autocast runs cross_entropy in float32.
        const torch::Tensor input = scores.to(torch::kFloat32);
        loss = torch::nn::functional::cross_entropy(input.view({-1, vocabulary}), labels.view({-1}));
    } else {
        // ForCausalLMLoss: the logits upcast to float32, the labels padded by one
        // ignored position and shifted, a summed cross-entropy divided by the count.
        const torch::Tensor wide = scores.to(torch::kFloat32);
        const torch::Tensor padded = torch::constant_pad_nd(labels, {0, 1}, -100);
        const torch::Tensor shifted = padded.narrow(1, 1, labels.size(1)).contiguous();
        namespace F = torch::nn::functional;
        loss = F::cross_entropy(wide.view({-1, vocabulary}), shifted.view({-1}),
                                F::CrossEntropyFuncOptions().ignore_index(-100).reduction(torch::kSum));
        loss = loss / static_cast<double>(labels.numel());
    }
    clearCastCaches();
    return loss;
}

torch::Tensor LanguageModelImpl::generate(const torch::Tensor &ids, std::int64_t newTokens)
{
    const torch::NoGradGuard noGradients;
    std::vector<KeyValueCache> caches(mLayers.size());
    torch::Tensor all = ids;
    torch::Tensor step = ids;
    for (std::int64_t made = 0; made < newTokens; ++made) {
        const torch::Tensor hidden = hiddenStates(step, &caches);
        // Only the last token's logits (logits_to_keep=1), copied to float32.
        const torch::Tensor last = logits(hidden.narrow(1, hidden.size(1) - 1, 1));
        const torch::Tensor scores = last.select(1, 0).to(torch::kFloat32, false, true);
        const torch::Tensor next = torch::empty({ids.size(0), 1}, metaOptions(torch::kInt64)); // argmax
        all = torch::cat({all, next}, 1);
        step = next;
        clearCastCaches();
    }
    return all;
}

} // namespace gpumem::architectures
