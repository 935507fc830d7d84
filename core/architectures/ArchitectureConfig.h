// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpumem::architectures {

// The layout of a language model's layers: Llama stands for every decoder of
// pre-normalised layers with rotary positions, gated MLPs (or mixtures of gated
// experts) and RMSNorm (model_type llama, mistral, qwen2, qwen3, mixtral, qwen2_moe);
// Gpt2 for GPT-2; Bert for BERT's encoder.
enum class Family
{
    Llama,
    Gpt2,
    Bert,
};

// A language model's shape as its Hugging Face config.json gives it, with the
// defaults of the transformers configuration class where a key is absent. Sizes
// are counts (of features, layers, heads, tokens), never bytes.
struct ArchitectureConfig
{
    // The library's name ("llama-3.2-3b"), or the name of the file it was read from.
    std::string name;
    // config.json's model_type, as written.
    std::string modelType;
    Family family = Family::Llama;
    std::int64_t hiddenSize = 0;
    std::int64_t layers = 0;
    std::int64_t attentionHeads = 0;
    std::int64_t keyValueHeads = 0;
    std::int64_t headDim = 0;
    std::int64_t intermediateSize = 0;
    std::int64_t vocabulary = 0;
    std::int64_t maxPositions = 0;
    // BERT's token types (type_vocab_size); 0 for the decoders.
    std::int64_t typeVocabulary = 0;
    // Whether the output projection shares the input embedding's weight.
    bool tiedEmbeddings = false;
    // Biases on the query, key and value projections (qwen2 always; llama and qwen3
    // with attention_bias; GPT-2 and BERT always).
    bool queryKeyValueBias = false;
    // A bias on the attention's output projection (llama and qwen3 with
    // attention_bias; GPT-2 and BERT always; never in mistral and qwen2).
    bool outputProjectionBias = false;
    // Biases on the MLP's linears (llama's mlp_bias; GPT-2 and BERT always).
    bool mlpBias = false;
    // An RMSNorm over head_dim on the queries and on the keys (qwen3's q_norm and k_norm).
    bool queryKeyNorm = false;
    // A mixture of experts in every layer (mixtral, qwen2_moe; 0 experts: a dense MLP):
    // the routed experts, how many each token is sent to, each expert's intermediate
    // size, whether the chosen experts' weights are renormalised to sum to 1, and
    // qwen2_moe's shared expert (0: none) with its sigmoid gate.
    std::int64_t experts = 0;
    std::int64_t expertsPerToken = 0;
    std::int64_t expertIntermediateSize = 0;
    bool normaliseTopExperts = false;
    std::int64_t sharedExpertIntermediateSize = 0;
    // The MLP's activation: silu, gelu, gelu_new, gelu_pytorch_tanh or relu.
    std::string activation;
    // The epsilon of every normalisation layer.
    double normEpsilon = 1e-5;
};

// The model_type values parseArchitectureConfig reads: llama, mistral, qwen2, qwen3,
// mixtral, qwen2_moe, gpt2, bert.
const std::vector<std::string> &supportedModelTypes();

// Reads a config.json's text as untrusted input: at most 1 MiB, a JSON object whose
// model_type is supported, every key that sizes the model checked for its type (a
// count must be a JSON integer) and its range, keys the model does not need ignored.
// where names the text in messages and gives the config its name (the file's stem,
// or its folder's name for a file called config.json). Throws io::InputError, one
// line naming where and the key at fault.
ArchitectureConfig parseArchitectureConfig(const std::string &text, const std::string &where);

// Reads file (a regular file of at most 1 MiB: a folder, FIFO or device is refused
// before anything is read) and parses it as parseArchitectureConfig does.
ArchitectureConfig readArchitectureConfig(const std::filesystem::path &file);

} // namespace gpumem::architectures
