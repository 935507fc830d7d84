// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architectures/BuildOptions.h"

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <cstdint>
#include <optional>
#include <string>

namespace gpumem::architectures {

// How one linear layer of a language model is held and run.
struct LinearOptions
{
    std::int64_t in = 0;
    std::int64_t out = 0;
    bool bias = false;
    torch::TensorOptions weights;                 // device and dtype of the stored weight and bias
    bool frozen = false;                          // the base weight takes no gradient (LoRA, QLoRA)
    bool nf4 = false;                             // the weight in 4-bit NF4 (QLoRA), computed in computeDtype
    std::optional<torch::Dtype> cast;             // autocast: the weight and input cast to this dtype per forward
    torch::Dtype computeDtype = torch::kBFloat16; // NF4's bnb_4bit_compute_dtype
    std::int64_t loraRank = 0;                    // 0: no adapter
    double loraScaling = 1.0;                     // lora_alpha / rank
    double loraDropout = 0.0;
    bool training = true;
};

// A linear layer, optionally frozen under a LoRA adapter (peft's lora.Linear: the
// input cast to the adapter's float32, dropout, A then B, scaled, added to the base's
// result, which is cast back to its dtype), optionally stored in NF4 and dequantised
// per call (bitsandbytes' Linear4bit and MatMul4Bit), optionally under autocast (its
// weight cast once per forward, as autocast's cache keeps it).
class AdaptedLinearImpl : public torch::nn::Module
{
  public:
    explicit AdaptedLinearImpl(const LinearOptions &options);

    // [..., in] -> [..., out]
    torch::Tensor forward(const torch::Tensor &input);
    // Forgets autocast's cached weight cast, as leaving an autocast region does.
    void clearCastCache() { mCastWeight = torch::Tensor(); }

    const LinearOptions &options() const { return mOptions; }

  private:
    torch::Tensor baseForward(const torch::Tensor &input);

    LinearOptions mOptions;
    torch::Tensor mWeight; // [out, in]; NF4: packed bytes [out × in / 2, 1]
    torch::Tensor mBias;
    // NF4's quantisation state with double quantisation: a byte per block of 64
    // weights, the float32 absmax per 256 of those bytes, the float32 code of the
    // second quantisation, the NF4 code, the offset.
    torch::Tensor mQuantisedAbsmax, mNestedAbsmax, mNestedCode, mCode, mOffset;
    torch::Tensor mLoraA; // [rank, in], float32
    torch::Tensor mLoraB; // [out, rank], float32
    torch::Tensor mCastWeight;
};
TORCH_MODULE(AdaptedLinear);

// The options of the linear layer transformers names name (q_proj, c_attn, dense…)
// under the recipe: frozen under LoRA, in NF4 under QLoRA, cast under autocast, and
// adapted when a LoRA target names it (peft matches the name's last part) or is
// all-linear.
LinearOptions linearOptionsFor(const BuildOptions &options, const std::string &name, std::int64_t in, std::int64_t out,
                               bool bias, const torch::TensorOptions &weights);

} // namespace gpumem::architectures
