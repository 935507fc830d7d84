// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architectures/ParameterCount.h"

#include <string>

namespace gpumem::architectures {

// How a language model is held and run for an estimate: the precision of its
// weights and of its arithmetic, the adapters on a frozen base, checkpointing.
struct BuildOptions
{
    // The dtype the weights are stored in: float32, bfloat16 or float16.
    std::string weights = "float32";
    // "" for none, or bfloat16/float16: torch.autocast's compute dtype over float32
    // weights (weights must then be float32).
    std::string autocast;
    LoraSettings lora;      // rank 0: every parameter trained
    double loraAlpha = 0.0; // peft's lora_alpha; 0 means the rank (a scaling of 1)
    double loraDropout = 0.0;
    // The base's linear layers in 4-bit NF4 (bitsandbytes, double quantisation), the
    // rest in float32 as peft's prepare_model_for_kbit_training leaves it; needs lora.
    bool qlora = false;
    bool gradientCheckpointing = false;
    // Training (dropout active, gradients) or inference (no dropout, no graph).
    bool training = true;
};

} // namespace gpumem::architectures
