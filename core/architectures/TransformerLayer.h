// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architectures/AdaptedLinear.h"
#include "architectures/ArchitectureConfig.h"
#include "architectures/BuildOptions.h"

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <optional>
#include <string>
#include <vector>

namespace gpumem::architectures {

// The keys and values a decoder layer keeps while generating (transformers'
// DynamicCache): each step's are concatenated to the kept ones, a new tensor.
struct KeyValueCache
{
    torch::Tensor keys;   // [batch, key_value_heads, tokens, head_dim]
    torch::Tensor values; // the same
};

// The rotary position embedding's cosine and sine, [1, tokens, head_dim].
struct RotaryTables
{
    torch::Tensor cosine;
    torch::Tensor sine;
};

// One layer of a language model, as the family's transformers module computes it:
//  - Llama (llama, mistral, qwen2, qwen3): RMSNorm in float32, the q/k/v projections
//    (qwen3: an RMSNorm over head_dim on queries and keys), rotary embeddings, causal
//    scaled_dot_product_attention over grouped key/value heads, o_proj, the residual;
//    RMSNorm, down(act(gate(x)) × up(x)), the residual; for mixtral and qwen2_moe the
//    MLP is a mixture of experts: the router's float32 softmax, its top experts, each
//    expert's MLP over the tokens routed to it (an equal share of them), added back by
//    index, and qwen2_moe's shared expert under a sigmoid gate;
//  - Gpt2: LayerNorm, c_attn (q, k and v in one product), causal attention, c_proj,
//    dropout, the residual; LayerNorm, c_fc, the activation, c_proj, dropout, the residual;
//  - Bert: query, key and value, attention over every token, dense, dropout,
//    LayerNorm of the sum with the input; intermediate dense and activation, dense,
//    dropout, LayerNorm of the sum.
// The linear layers are AdaptedLinear, named as transformers names them, so that
// LoRA targets are found by the same names.
class TransformerLayerImpl : public torch::nn::Module
{
  public:
    TransformerLayerImpl(const ArchitectureConfig &config, const BuildOptions &options,
                         const torch::TensorOptions &weights);

    // hidden [batch, tokens, hidden] -> [batch, tokens, hidden]. rotary: the decoder's
    // tables (Llama only). cache: the generation's keys and values, extended here.
    torch::Tensor forward(const torch::Tensor &hidden, const RotaryTables &rotary, KeyValueCache *cache = nullptr);

    // Forgets every linear's autocast weight cast (the end of an autocast region).
    void clearCastCaches();

  private:
    torch::Tensor attention(const torch::Tensor &hidden, const RotaryTables &rotary, KeyValueCache *cache);
    torch::Tensor feedForward(const torch::Tensor &hidden);
    torch::Tensor normalised(const torch::Tensor &hidden, const torch::Tensor &weight, const torch::Tensor &bias);
    torch::Tensor activation(const torch::Tensor &input) const;
    AdaptedLinear linear(const std::string &name, std::int64_t in, std::int64_t out, bool bias);

    ArchitectureConfig mConfig;
    BuildOptions mOptions;
    torch::TensorOptions mWeights;
    std::vector<AdaptedLinear> mLinears;
    AdaptedLinear mQuery{nullptr}, mKey{nullptr}, mValue{nullptr}, mQueryKeyValue{nullptr}, mOutput{nullptr};
    torch::Tensor mixtureOfExperts(const torch::Tensor &hidden);

    AdaptedLinear mGate{nullptr}, mUp{nullptr}, mDown{nullptr}; // the MLP, or qwen2_moe's shared expert
    AdaptedLinear mRouter{nullptr}, mSharedGate{nullptr};
    struct Expert
    {
        AdaptedLinear gate, up, down;
    };
    std::vector<Expert> mExperts;
    torch::Tensor mFirstNormWeight, mFirstNormBias, mSecondNormWeight, mSecondNormBias;
    torch::Tensor mQueryNormWeight, mKeyNormWeight; // qwen3
};
TORCH_MODULE(TransformerLayer);

// RMSNorm as LlamaRMSNorm computes it: the input in float32, its mean square, the
// reciprocal root, the product, back to the input's dtype, times the weight.
torch::Tensor rmsNorm(const torch::Tensor &input, const torch::Tensor &weight, double epsilon);

// The dropout probability of the family's hidden states in training: 0.1 for GPT-2
// and BERT (resid_pdrop, hidden_dropout_prob), none in the Llama family.
double hiddenDropout(Family family);

} // namespace gpumem::architectures
