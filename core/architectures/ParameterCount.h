// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architectures/ArchitectureConfig.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::architectures {

// The parameters of the model an estimate trains, as transformers'
// model.num_parameters() counts them (a tied weight once, buffers never): the
// causal LM (LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM,
// Qwen3ForCausalLM, MixtralForCausalLM, Qwen2MoeForCausalLM, GPT2LMHeadModel) for a decoder, BertForMaskedLM for BERT.
// config must come from parseArchitectureConfig, whose bounds keep the count
// inside 64 bits.
std::int64_t parameterCount(const ArchitectureConfig &config);

// A LoRA adapter as peft's LoraConfig gives it: the rank r and target_modules.
struct LoraSettings
{
    // 0: no LoRA, every parameter trains.
    std::int64_t rank = 0;
    // Names of linear layers (loraTargetNames), matched as peft matches a module
    // name's last part; "all-linear" stands for all of them.
    std::vector<std::string> targets;
};

// The linear layers a LoRA target may name in a family: llama q_proj, k_proj,
// v_proj, o_proj, gate_proj, up_proj, down_proj; gpt2 c_attn, c_proj (the
// attention's and the MLP's), c_fc; bert query, key, value, dense (the attention's
// output, the intermediate and the output linears, and the masked-LM head's transform).
const std::vector<std::string> &loraTargetNames(Family family);
// The same for one model: a mixture of experts adds its router ("gate"), its experts'
// linears (mixtral: w1, w2, w3) and qwen2_moe's shared_expert_gate.
std::vector<std::string> loraTargetNames(const ArchitectureConfig &config);

// The attention projections peft adapts when a LoraConfig names no targets (its
// TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING): q_proj and v_proj, GPT-2's
// c_attn, BERT's query and value; what a LoRA recipe starts from.
const std::vector<std::string> &defaultLoraTargets(Family family);

// "q_proj, v_proj" → {"q_proj", "v_proj"}: items separated by commas, spaces dropped,
// empty items skipped, as --lora-targets and the workbench's field read them.
std::vector<std::string> parseLoraTargets(const std::string &text);

// The parameters that train: all of them without LoRA; with LoRA only the
// adapters, rank × (inputs + outputs) for each targeted linear (lora_A and
// lora_B, no bias), as peft counts them. "all-linear" targets every linear but the
// output projection, as peft's shorthand does. Throws io::InputError for a rank
// outside [0, 65536], for LoRA without targets, and for an unknown target, listing
// the family's names.
std::int64_t trainableParameterCount(const ArchitectureConfig &config, const LoraSettings &lora);

} // namespace gpumem::architectures
