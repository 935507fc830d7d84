// SPDX-License-Identifier: GPL-3.0-or-later
#include "architectures/ArchitectureConfig.h"

#include "io/InputError.h"
#include "io/Json.h"
#include "io/RegularFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

namespace gpumem::architectures {

namespace {

constexpr std::uint64_t kMaxConfigBytes = 1u << 20;

// Bounds far above any published model that still keep every parameter count
// (vocabulary × hidden, layers × intermediate × hidden) well inside 64 bits.
constexpr std::int64_t kMaxHiddenSize = 65536;
constexpr std::int64_t kMaxLayers = 1024;
constexpr std::int64_t kMaxHeads = 1024;
constexpr std::int64_t kMaxHeadDim = 1024;
constexpr std::int64_t kMaxIntermediateSize = 262144;
constexpr std::int64_t kMaxVocabulary = 4194304;
constexpr std::int64_t kMaxPositions = 16777216;
constexpr std::int64_t kMaxTypeVocabulary = 1024;
constexpr std::int64_t kMaxExperts = 1024;

const std::vector<std::string> &supportedActivations()
{
    static const std::vector<std::string> names = {"silu", "gelu", "gelu_new", "gelu_pytorch_tanh", "relu"};
    return names;
}

std::string joined(const std::vector<std::string> &names)
{
    std::string text;
    for (const auto &name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

// The value as the file wrote it, cut short, so that a message stays one line.
std::string shown(const io::Json &value)
{
    return io::quoteForMessage(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string quotedKey(const std::string &key)
{
    return "\"" + key + "\"";
}

// Reads the keys of one config.json, each message naming the file and the key.
class ConfigReader
{
  public:
    ConfigReader(const io::Json &object, const std::string &where)
        : mObject(object)
        , mWhere(where)
    {
    }

    [[noreturn]] void refuse(const std::string &message) const { throw io::InputError(mWhere, 0, 0, message); }

    const io::Json *find(const std::string &key) const
    {
        const auto found = mObject.find(key);
        return found == mObject.end() ? nullptr : &*found;
    }

    // A count in [1, maximum]: a JSON integer, never 12.0 or "12", which transformers
    // would keep as a float or a string and fail on when it builds the model.
    std::int64_t count(const std::string &key, const io::Json &value, std::int64_t maximum) const
    {
        const std::string range = " must be an integer from 1 to " + std::to_string(maximum) + ", not " + shown(value);
        if (!value.is_number_integer())
            refuse(quotedKey(key) + range);
        // Compared as unsigned first: a number past 2^63 must not wrap into the range.
        if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(maximum))
            refuse(quotedKey(key) + range);
        const auto number = value.get<std::int64_t>();
        if (number < 1 || number > maximum)
            refuse(quotedKey(key) + range);
        return number;
    }

    // The count under key, or fallback when the file leaves the key out. A null
    // stands for the fallback only where nullMeansFallback says transformers reads it so.
    std::int64_t count(const std::string &key, std::int64_t fallback, std::int64_t maximum,
                       bool nullMeansFallback = false) const
    {
        const io::Json *value = find(key);
        if (value == nullptr || (nullMeansFallback && value->is_null()))
            return fallback;
        return count(key, *value, maximum);
    }

    // GPT-2's keys have a second name (n_embd and hidden_size): the file may use
    // either, and where it uses both they must agree.
    std::int64_t aliasedCount(const std::string &key, const std::string &alias, std::int64_t fallback,
                              std::int64_t maximum) const
    {
        const io::Json *value = find(key);
        const io::Json *aliased = find(alias);
        if (value == nullptr && aliased == nullptr)
            return fallback;
        if (value == nullptr)
            return count(alias, *aliased, maximum);
        const std::int64_t number = count(key, *value, maximum);
        if (aliased != nullptr && count(alias, *aliased, maximum) != number)
            refuse(quotedKey(key) + " and its other name " + quotedKey(alias) + " disagree (" + std::to_string(number) +
                   " and " + shown(*aliased) + ")");
        return number;
    }

    bool flag(const std::string &key, bool fallback) const
    {
        const io::Json *value = find(key);
        if (value == nullptr)
            return fallback;
        if (!value->is_boolean())
            refuse(quotedKey(key) + " must be true or false, not " + shown(*value));
        return value->get<bool>();
    }

    double epsilon(const std::string &key, double fallback) const
    {
        const io::Json *value = find(key);
        if (value == nullptr)
            return fallback;
        if (!value->is_number() || !std::isfinite(value->get<double>()) || value->get<double>() <= 0.0 ||
            value->get<double>() >= 1.0)
            refuse(quotedKey(key) + " must be a number between 0 and 1 (exclusive), not " + shown(*value));
        return value->get<double>();
    }

    std::string activation(const std::string &key, const std::string &fallback) const
    {
        const io::Json *value = find(key);
        if (value == nullptr)
            return fallback;
        const auto &known = supportedActivations();
        if (!value->is_string() || std::find(known.begin(), known.end(), value->get<std::string>()) == known.end())
            refuse(quotedKey(key) + " must be one of " + joined(known) + ", not " + shown(*value));
        return value->get<std::string>();
    }

    // Refuses a key whose value would add parameters that the counts here leave out.
    void requireAbsentOr(const std::string &key, const io::Json &accepted, const std::string &why) const
    {
        const io::Json *value = find(key);
        if (value != nullptr && !value->is_null() && *value != accepted)
            refuse(quotedKey(key) + " " + shown(*value) + " is not supported: " + why);
    }

  private:
    const io::Json &mObject;
    std::string mWhere;
};

// What a configuration class of transformers gives a key the file leaves out.
struct DecoderDefaults
{
    std::int64_t hiddenSize;
    std::int64_t intermediateSize;
    std::int64_t layers;
    std::int64_t attentionHeads;
    std::optional<std::int64_t> keyValueHeads; // absent: as many as the attention heads
    std::optional<std::int64_t> headDim;       // absent: hidden size / attention heads
    std::int64_t vocabulary;
    std::int64_t maxPositions;
};

DecoderDefaults decoderDefaults(const std::string &modelType)
{
    // LlamaConfig, MistralConfig, Qwen2Config and Qwen3Config; all four default to
    // rms_norm_eps 1e-6, silu and untied embeddings.
    if (modelType == "mistral")
        return {4096, 14336, 32, 32, 8, std::nullopt, 32000, 131072};
    if (modelType == "qwen2")
        return {4096, 22016, 32, 32, 32, std::nullopt, 151936, 32768};
    if (modelType == "qwen3")
        return {4096, 22016, 32, 32, 32, 128, 151936, 32768};
    if (modelType == "mixtral")
        return {4096, 14336, 32, 32, 8, std::nullopt, 32000, 131072};
    if (modelType == "qwen2_moe")
        return {2048, 5632, 24, 16, 16, std::nullopt, 151936, 32768};
    return {4096, 11008, 32, 32, std::nullopt, std::nullopt, 32000, 2048};
}

// hidden / heads as the attention layers derive the head size, when it divides.
std::int64_t derivedHeadDim(const ConfigReader &reader, const ArchitectureConfig &config, const std::string &hiddenKey,
                            const std::string &headsKey)
{
    if (config.hiddenSize % config.attentionHeads != 0)
        reader.refuse(quotedKey(hiddenKey) + " " + std::to_string(config.hiddenSize) + " is not a multiple of " +
                      quotedKey(headsKey) + " " + std::to_string(config.attentionHeads));
    const std::int64_t headDim = config.hiddenSize / config.attentionHeads;
    if (headDim > kMaxHeadDim)
        reader.refuse("the head size " + quotedKey(hiddenKey) + " / " + quotedKey(headsKey) + " = " +
                      std::to_string(headDim) + " must be at most " + std::to_string(kMaxHeadDim));
    return headDim;
}

void readDecoder(const ConfigReader &reader, ArchitectureConfig &config)
{
    const DecoderDefaults defaults = decoderDefaults(config.modelType);
    config.family = Family::Llama;
    config.hiddenSize = reader.count("hidden_size", defaults.hiddenSize, kMaxHiddenSize);
    config.layers = reader.count("num_hidden_layers", defaults.layers, kMaxLayers);
    config.attentionHeads = reader.count("num_attention_heads", defaults.attentionHeads, kMaxHeads);
    // A null asks for as many key-value heads as attention heads in all four classes.
    const io::Json *keyValueHeads = reader.find("num_key_value_heads");
    if (keyValueHeads == nullptr)
        config.keyValueHeads = defaults.keyValueHeads.value_or(config.attentionHeads);
    else if (keyValueHeads->is_null())
        config.keyValueHeads = config.attentionHeads;
    else
        config.keyValueHeads = reader.count("num_key_value_heads", *keyValueHeads, kMaxHeads);
    if (config.attentionHeads % config.keyValueHeads != 0)
        reader.refuse("\"num_attention_heads\" " + std::to_string(config.attentionHeads) +
                      " is not a multiple of \"num_key_value_heads\" " + std::to_string(config.keyValueHeads));
    const io::Json *headDim = reader.find("head_dim");
    if (headDim != nullptr && !headDim->is_null())
        config.headDim = reader.count("head_dim", *headDim, kMaxHeadDim);
    else if (defaults.headDim)
        config.headDim = *defaults.headDim;
    else
        config.headDim = derivedHeadDim(reader, config, "hidden_size", "num_attention_heads");
    config.intermediateSize = reader.count("intermediate_size", defaults.intermediateSize, kMaxIntermediateSize);
    config.vocabulary = reader.count("vocab_size", defaults.vocabulary, kMaxVocabulary);
    config.maxPositions = reader.count("max_position_embeddings", defaults.maxPositions, kMaxPositions);
    config.tiedEmbeddings = reader.flag("tie_word_embeddings", false);
    config.activation = reader.activation("hidden_act", "silu");
    config.normEpsilon = reader.epsilon("rms_norm_eps", 1e-6);
    // Which biases exist differs by class, not by key: mistral's and qwen2's modules
    // ignore attention_bias and mlp_bias, so those keys are read only where they act.
    if (config.modelType == "llama") {
        config.queryKeyValueBias = config.outputProjectionBias = reader.flag("attention_bias", false);
        config.mlpBias = reader.flag("mlp_bias", false);
    } else if (config.modelType == "qwen2") {
        config.queryKeyValueBias = true;
    } else if (config.modelType == "qwen3") {
        config.queryKeyValueBias = config.outputProjectionBias = reader.flag("attention_bias", false);
        config.queryKeyNorm = true;
    } else if (config.modelType == "mixtral") {
        // MixtralConfig: 8 local experts, 2 per token, each of intermediate_size; the
        // router's top weights renormalised.
        config.experts = reader.count("num_local_experts", 8, kMaxExperts);
        config.expertsPerToken = reader.count("num_experts_per_tok", 2, kMaxExperts);
        config.expertIntermediateSize = config.intermediateSize;
        config.normaliseTopExperts = true;
    } else if (config.modelType == "qwen2_moe") {
        // Qwen2MoeConfig: 60 experts of moe_intermediate_size, 4 per token, and a shared
        // expert of shared_expert_intermediate_size in every layer.
        config.queryKeyValueBias = true;
        config.experts = reader.count("num_experts", 60, kMaxExperts);
        config.expertsPerToken = reader.count("num_experts_per_tok", 4, kMaxExperts);
        config.expertIntermediateSize = reader.count("moe_intermediate_size", 1408, kMaxIntermediateSize);
        config.sharedExpertIntermediateSize =
            reader.count("shared_expert_intermediate_size", 5632, kMaxIntermediateSize);
        config.normaliseTopExperts = reader.flag("norm_topk_prob", false);
        reader.requireAbsentOr("decoder_sparse_step", 1, "only a mixture of experts in every layer is modelled");
        reader.requireAbsentOr("mlp_only_layers", io::Json::array(),
                               "only a mixture of experts in every layer is modelled");
    }
    if (config.expertsPerToken > config.experts)
        reader.refuse("\"num_experts_per_tok\" " + std::to_string(config.expertsPerToken) + " is more than the " +
                      std::to_string(config.experts) + " experts");
}

void readGpt2(const ConfigReader &reader, ArchitectureConfig &config)
{
    config.family = Family::Gpt2;
    config.hiddenSize = reader.aliasedCount("n_embd", "hidden_size", 768, kMaxHiddenSize);
    config.layers = reader.aliasedCount("n_layer", "num_hidden_layers", 12, kMaxLayers);
    config.attentionHeads = reader.aliasedCount("n_head", "num_attention_heads", 12, kMaxHeads);
    config.keyValueHeads = config.attentionHeads;
    config.headDim = derivedHeadDim(reader, config, "n_embd", "n_head");
    // 4 × 65536 is the largest intermediate size allowed, so the derived one always fits.
    config.intermediateSize = reader.count("n_inner", 4 * config.hiddenSize, kMaxIntermediateSize, true);
    config.vocabulary = reader.count("vocab_size", 50257, kMaxVocabulary);
    config.maxPositions = reader.aliasedCount("n_positions", "max_position_embeddings", 1024, kMaxPositions);
    config.tiedEmbeddings = reader.flag("tie_word_embeddings", true);
    config.activation = reader.activation("activation_function", "gelu_new");
    config.normEpsilon = reader.epsilon("layer_norm_epsilon", 1e-5);
    config.queryKeyValueBias = config.outputProjectionBias = config.mlpBias = true;
    reader.requireAbsentOr("add_cross_attention", false, "cross-attention layers are not modelled");
}

void readBert(const ConfigReader &reader, ArchitectureConfig &config)
{
    config.family = Family::Bert;
    config.hiddenSize = reader.count("hidden_size", 768, kMaxHiddenSize);
    config.layers = reader.count("num_hidden_layers", 12, kMaxLayers);
    config.attentionHeads = reader.count("num_attention_heads", 12, kMaxHeads);
    config.keyValueHeads = config.attentionHeads;
    config.headDim = derivedHeadDim(reader, config, "hidden_size", "num_attention_heads");
    config.intermediateSize = reader.count("intermediate_size", 3072, kMaxIntermediateSize);
    config.vocabulary = reader.count("vocab_size", 30522, kMaxVocabulary);
    config.maxPositions = reader.count("max_position_embeddings", 512, kMaxPositions);
    config.typeVocabulary = reader.count("type_vocab_size", 2, kMaxTypeVocabulary);
    // The masked-LM head's decoder shares the word embeddings unless the file says not to.
    config.tiedEmbeddings = reader.flag("tie_word_embeddings", true);
    config.activation = reader.activation("hidden_act", "gelu");
    config.normEpsilon = reader.epsilon("layer_norm_eps", 1e-12);
    config.queryKeyValueBias = config.outputProjectionBias = config.mlpBias = true;
    // Relative positions add a distance embedding to every layer's attention.
    reader.requireAbsentOr("position_embedding_type", "absolute", "only absolute position embeddings are modelled");
    reader.requireAbsentOr("add_cross_attention", false, "cross-attention layers are not modelled");
}

// The file's stem; for a config.json inside a model's folder, the folder's name.
std::string nameFrom(const std::string &where)
{
    const std::filesystem::path path(where);
    const std::string folder = path.parent_path().filename().string();
    if (path.stem() == "config" && !folder.empty() && folder != "." && folder != "..")
        return folder;
    return path.stem().string();
}

} // namespace

const std::vector<std::string> &supportedModelTypes()
{
    static const std::vector<std::string> types = {"llama",   "mistral",   "qwen2", "qwen3",
                                                   "mixtral", "qwen2_moe", "gpt2",  "bert"};
    return types;
}

ArchitectureConfig parseArchitectureConfig(const std::string &text, const std::string &where)
{
    if (text.size() > kMaxConfigBytes)
        throw io::InputError(where, 0, 0, "a config.json may hold at most 1 MiB");
    // The strict reader of every JSON input: a repeated key, invalid UTF-8 or bytes
    // after the object are refused with their line and column.
    const io::Json object = io::parseJson(text, where);
    if (!object.is_object())
        throw io::InputError(where, 0, 0,
                             "a config.json is a JSON object, not " + std::string(io::describeType(object)));
    const ConfigReader reader(object, where);
    const std::string supported = "supported: " + joined(supportedModelTypes());
    const io::Json *modelType = reader.find("model_type");
    if (modelType == nullptr || !modelType->is_string())
        reader.refuse("a config.json needs \"model_type\" as a string (" + supported + ")");
    ArchitectureConfig config;
    config.name = nameFrom(where);
    config.modelType = modelType->get<std::string>();
    const auto &types = supportedModelTypes();
    if (std::find(types.begin(), types.end(), config.modelType) == types.end())
        reader.refuse("\"model_type\" " + io::quoteForMessage(config.modelType) + " is not supported (" + supported +
                      ")");
    if (config.modelType == "gpt2")
        readGpt2(reader, config);
    else if (config.modelType == "bert")
        readBert(reader, config);
    else
        readDecoder(reader, config);
    return config;
}

ArchitectureConfig readArchitectureConfig(const std::filesystem::path &file)
{
    return parseArchitectureConfig(io::readRegularFile(file.string(), kMaxConfigBytes), file.string());
}

} // namespace gpumem::architectures
