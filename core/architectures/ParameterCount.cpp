// SPDX-License-Identifier: GPL-3.0-or-later
#include "architectures/ParameterCount.h"

#include "io/InputError.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace gpumem::architectures {

namespace {

constexpr std::int64_t kMaxLoraRank = 65536;
const std::string kAllLinear = "all-linear";

// One nn.Linear (or GPT-2's Conv1D) of the model, under the name peft matches.
struct Linear
{
    std::string name;
    std::int64_t inputs;
    std::int64_t outputs;
    bool bias;
};

std::int64_t parametersOf(const Linear &linear)
{
    return linear.inputs * linear.outputs + (linear.bias ? linear.outputs : 0);
}

// The linears of one layer, in the order the modeling files declare them.
std::vector<Linear> layerLinears(const ArchitectureConfig &config)
{
    const std::int64_t hidden = config.hiddenSize;
    const std::int64_t intermediate = config.intermediateSize;
    switch (config.family) {
    case Family::Gpt2:
        // c_proj names two layers, the attention's and the MLP's, and peft adapts both.
        return {{"c_attn", hidden, 3 * hidden, true},
                {"c_proj", hidden, hidden, true},
                {"c_fc", hidden, intermediate, true},
                {"c_proj", intermediate, hidden, true}};
    case Family::Bert:
        return {{"query", hidden, hidden, true},       {"key", hidden, hidden, true},
                {"value", hidden, hidden, true},       {"dense", hidden, hidden, true},
                {"dense", hidden, intermediate, true}, {"dense", intermediate, hidden, true}};
    case Family::Llama: break;
    }
    const std::int64_t queries = config.attentionHeads * config.headDim;
    const std::int64_t keysOrValues = config.keyValueHeads * config.headDim;
    std::vector<Linear> linears = {{"q_proj", hidden, queries, config.queryKeyValueBias},
                                   {"k_proj", hidden, keysOrValues, config.queryKeyValueBias},
                                   {"v_proj", hidden, keysOrValues, config.queryKeyValueBias},
                                   {"o_proj", queries, hidden, config.outputProjectionBias}};
    if (config.experts == 0) {
        linears.insert(linears.end(), {{"gate_proj", hidden, intermediate, config.mlpBias},
                                       {"up_proj", hidden, intermediate, config.mlpBias},
                                       {"down_proj", intermediate, hidden, config.mlpBias}});
        return linears;
    }
    // The router, then every expert's gated MLP (mixtral names them w1, w3 and w2;
    // qwen2_moe as a dense layer's), then qwen2_moe's shared expert and its gate.
    linears.push_back({"gate", hidden, config.experts, false});
    const std::int64_t expert = config.expertIntermediateSize;
    const bool mixtral = config.modelType == "mixtral";
    for (std::int64_t i = 0; i < config.experts; ++i)
        linears.insert(linears.end(), {{mixtral ? "w1" : "gate_proj", hidden, expert, false},
                                       {mixtral ? "w3" : "up_proj", hidden, expert, false},
                                       {mixtral ? "w2" : "down_proj", expert, hidden, false}});
    if (const std::int64_t shared = config.sharedExpertIntermediateSize; shared > 0)
        linears.insert(linears.end(), {{"gate_proj", hidden, shared, false},
                                       {"up_proj", hidden, shared, false},
                                       {"down_proj", shared, hidden, false},
                                       {"shared_expert_gate", hidden, 1, false}});
    return linears;
}

// The linears outside the layers that a target's name also matches: BERT's masked-LM
// head transforms the hidden states with a "dense" before its decoder. The output
// projections (lm_head, the decoder) are left out, as peft leaves them out of all-linear.
std::vector<Linear> headLinears(const ArchitectureConfig &config)
{
    if (config.family == Family::Bert)
        return {{"dense", config.hiddenSize, config.hiddenSize, true}};
    return {};
}

std::int64_t linearParameters(const std::vector<Linear> &linears)
{
    std::int64_t total = 0;
    for (const auto &linear : linears)
        total += parametersOf(linear);
    return total;
}

std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::set<std::string> targetedNames(const ArchitectureConfig &config, const LoraSettings &lora)
{
    const std::vector<std::string> known = loraTargetNames(config);
    std::string listed;
    for (const auto &name : known)
        listed += name + ", ";
    listed += kAllLinear;
    if (lora.targets.empty())
        throw io::InputError("LoRA needs at least one target module (for " + config.modelType + ": " + listed + ")");
    std::set<std::string> names;
    for (const auto &target : lora.targets) {
        // peft reads the shorthand in any case; module names are matched exactly.
        if (lowered(target) == kAllLinear)
            names.insert(known.begin(), known.end());
        else if (std::find(known.begin(), known.end(), target) != known.end())
            names.insert(target);
        else
            throw io::InputError("unknown LoRA target " + io::quoteForMessage(target) + " for " + config.modelType +
                                 " (known: " + listed + ")");
    }
    return names;
}

} // namespace

std::int64_t parameterCount(const ArchitectureConfig &config)
{
    const std::int64_t hidden = config.hiddenSize;
    const std::int64_t wordEmbeddings = config.vocabulary * hidden;
    const std::int64_t outputProjection = config.tiedEmbeddings ? 0 : config.vocabulary * hidden;
    std::int64_t perLayer = linearParameters(layerLinears(config));
    switch (config.family) {
    case Family::Gpt2:
        // ln_1 and ln_2 with weight and bias; the causal-mask buffers are no parameters.
        perLayer += 2 * 2 * hidden;
        return wordEmbeddings + config.maxPositions * hidden + config.layers * perLayer + 2 * hidden + outputProjection;
    case Family::Bert: {
        // The attention's and the output's LayerNorm, weight and bias each.
        perLayer += 2 * 2 * hidden;
        const std::int64_t embeddings =
            wordEmbeddings + config.maxPositions * hidden + config.typeVocabulary * hidden + 2 * hidden;
        // BertForMaskedLM has no pooler; its head is a dense, a LayerNorm and the
        // decoder, whose bias is its own even when the weight is tied.
        const std::int64_t head =
            linearParameters(headLinears(config)) + 2 * hidden + config.vocabulary + outputProjection;
        return embeddings + config.layers * perLayer + head;
    }
    case Family::Llama: break;
    }
    // input_layernorm and post_attention_layernorm (RMSNorm: a weight only), and qwen3's
    // q_norm and k_norm over one head.
    perLayer += 2 * hidden + (config.queryKeyNorm ? 2 * config.headDim : 0);
    return wordEmbeddings + config.layers * perLayer + hidden + outputProjection;
}

const std::vector<std::string> &loraTargetNames(Family family)
{
    static const std::vector<std::string> llama = {"q_proj",    "k_proj",  "v_proj",   "o_proj",
                                                   "gate_proj", "up_proj", "down_proj"};
    static const std::vector<std::string> gpt2 = {"c_attn", "c_proj", "c_fc"};
    static const std::vector<std::string> bert = {"query", "key", "value", "dense"};
    switch (family) {
    case Family::Gpt2: return gpt2;
    case Family::Bert: return bert;
    case Family::Llama: break;
    }
    return llama;
}

std::vector<std::string> loraTargetNames(const ArchitectureConfig &config)
{
    if (config.experts == 0)
        return loraTargetNames(config.family);
    std::vector<std::string> names;
    for (const auto &linear : layerLinears(config))
        if (std::find(names.begin(), names.end(), linear.name) == names.end())
            names.push_back(linear.name);
    return names;
}

const std::vector<std::string> &defaultLoraTargets(Family family)
{
    static const std::vector<std::string> llama = {"q_proj", "v_proj"};
    static const std::vector<std::string> gpt2 = {"c_attn"};
    static const std::vector<std::string> bert = {"query", "value"};
    switch (family) {
    case Family::Gpt2: return gpt2;
    case Family::Bert: return bert;
    case Family::Llama: break;
    }
    return llama;
}

std::vector<std::string> parseLoraTargets(const std::string &text)
{
    std::vector<std::string> targets;
    std::string item;
    for (const char c : text + ",") {
        if (c == ',') {
            if (!item.empty())
                targets.push_back(item);
            item.clear();
        } else if (c != ' ') {
            item += c;
        }
    }
    return targets;
}

std::int64_t trainableParameterCount(const ArchitectureConfig &config, const LoraSettings &lora)
{
    if (lora.rank < 0 || lora.rank > kMaxLoraRank)
        throw io::InputError("the LoRA rank must be a whole number from 0 to " + std::to_string(kMaxLoraRank) +
                             ", not " + std::to_string(lora.rank));
    if (lora.rank == 0)
        return parameterCount(config);
    const std::set<std::string> names = targetedNames(config, lora);
    const auto adapters = [&](const std::vector<Linear> &linears) {
        std::int64_t total = 0;
        for (const auto &linear : linears)
            if (names.count(linear.name) != 0)
                total += lora.rank * (linear.inputs + linear.outputs);
        return total;
    };
    return config.layers * adapters(layerLinears(config)) + adapters(headLinears(config));
}

} // namespace gpumem::architectures
