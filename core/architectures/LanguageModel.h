// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architectures/ArchitectureConfig.h"
#include "architectures/BuildOptions.h"
#include "architectures/TransformerLayer.h"

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <functional>
#include <vector>

namespace gpumem::architectures {

// A language model built natively from its configuration on PyTorch's meta device:
// every tensor has its real shape and dtype and no storage, so a 70B model costs no
// memory and no arithmetic, while LibTorch's allocator still sees every block the
// model's forward and backward passes ask for. The model is the one transformers
// trains: a causal LM (LlamaForCausalLM and its kin, GPT2LMHeadModel) or BERT's
// masked LM (BertForMaskedLM), with the recipe of options applied.
class LanguageModelImpl : public torch::nn::Module
{
  public:
    LanguageModelImpl(const ArchitectureConfig &config, const BuildOptions &options);

    // The loss of one training forward pass over token ids [batch, tokens] (int64,
    // on the meta device) with labels alike: the causal LM's (logits in float32, the
    // labels shifted by one) or the masked LM's.
    torch::Tensor trainingLoss(const torch::Tensor &ids, const torch::Tensor &labels);

    // generate(ids, max_new_tokens=newTokens) as greedy decoding runs it without
    // gradients: the prompt's forward pass fills each layer's key/value cache and
    // gives the logits of its last token, then each further token is one step over
    // the cache. Returns the ids, prompt and generated.
    torch::Tensor generate(const torch::Tensor &ids, std::int64_t newTokens);

    // The parameters that take gradients (all, or the adapters under LoRA).
    std::vector<torch::Tensor> trainableParameters() const;

    const ArchitectureConfig &config() const { return mConfig; }

  private:
    // [batch, tokens] -> [batch, tokens, hidden] after the last layer and norm.
    torch::Tensor hiddenStates(const torch::Tensor &ids, std::vector<KeyValueCache> *caches);
    torch::Tensor embedded(const torch::Tensor &ids);
    RotaryTables rotaryTables(std::int64_t tokens, torch::Dtype dtype) const;
    torch::Tensor logits(const torch::Tensor &hidden);
    void clearCastCaches();

    ArchitectureConfig mConfig;
    BuildOptions mOptions;
    torch::TensorOptions mWeights;
    torch::Tensor mTokenEmbedding, mPositionEmbedding, mTypeEmbedding, mTypeIds;
    torch::Tensor mEmbeddingNormWeight, mEmbeddingNormBias;
    torch::Tensor mInverseFrequencies; // rotary: [head_dim / 2], float32
    std::vector<TransformerLayer> mLayers;
    torch::Tensor mFinalNormWeight, mFinalNormBias;
    torch::Tensor mHeadWeight;         // untied output projection, [vocabulary, hidden]
    AdaptedLinear mTransform{nullptr}; // BERT's prediction head transform
    torch::Tensor mTransformNormWeight, mTransformNormBias, mDecoderBias;
    std::vector<std::function<torch::Tensor(const torch::Tensor &)>> mLayerCalls; // checkpointed
};
TORCH_MODULE(LanguageModel);

// Tensor options on the meta device with dtype.
torch::TensorOptions metaOptions(torch::Dtype dtype);

// The torch dtype of "float32", "bfloat16" or "float16".
torch::Dtype dtypeNamed(const std::string &name);

} // namespace gpumem::architectures
