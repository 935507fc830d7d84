// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/Sharding.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::estimate {

// What the model's inputs hold: random floats of the training dtype, or token
// ids in [0, vocabulary) for language models.
enum class InputKind
{
    Float,
    Tokens,
};

// How a user's TorchScript model is trained while its memory is traced.
struct EstimateConfiguration
{
    std::string modelPath;
    // One sample's shape per model input (the batch dimension is prepended).
    std::vector<std::vector<std::int64_t>> inputShapes;
    InputKind inputKind = InputKind::Float;
    std::int64_t vocabulary = 0;    // tokens: ids are drawn in [0, vocabulary)
    std::string optimizer = "adam"; // sgd, sgd_momentum, adam or adamw
    // foreach (PyTorch 2's default on CUDA), fused or for_loop: see TracedOptimizer.
    std::string optimizerImplementation = "foreach";
    // efficient: attention as PyTorch 2's fused scaled_dot_product_attention computes it
    // on a GPU (nn.MultiheadAttention, F.scaled_dot_product_attention); math: as the
    // model's own operators, attention probabilities included (hand-written attention).
    std::string attention = "efficient";
    std::string dtype = "float32";       // float32, float64, bfloat16 or float16
    std::string loss = "cross_entropy";  // cross_entropy, mse or sum
    std::optional<std::int64_t> classes; // cross_entropy: targets in [0, classes); default the output's last dimension
    int steps = 2;                       // training steps traced (2: the optimizer state exists in the second)
    // torch.nn.utils.clip_grad_norm_ before each optimizer step (its transient norms).
    std::optional<double> clipGradNorm;

    // A language model from its config.json (a file, a model folder or a library
    // name) instead of modelPath; the options below apply to it.
    std::string architecture;
    std::int64_t sequenceLength = 512; // tokens per sample
    std::string autocast;              // "", bfloat16 or float16: float32 weights, autocast's compute dtype
    bool gradientCheckpointing = false;
    std::int64_t loraRank = 0; // 0: a full fine-tune
    std::vector<std::string> loraTargets;
    double loraAlpha = 0.0; // 0: the rank
    double loraDropout = 0.0;
    bool qlora = false;               // the base in NF4 under the LoRA adapters
    std::string mode = "training";    // training, or inference: a forward pass with the key/value cache
    std::int64_t generatedTokens = 0; // inference: tokens generated after the prompt of sequenceLength
    // Several GPUs (Sharding.h), for a language model: gpus in all, the data-parallel
    // scheme's name (shardingNames()) and the tensor-parallel GPUs among them. The batch
    // size is each GPU's. 1, "none", 1: one GPU.
    std::int64_t gpus = 1;
    std::string sharding = "none";
    std::int64_t tensorParallel = 1;

    // Throws io::InputError naming the parameter at fault for options that do not
    // go together or values out of range (a language model's recipe, its GPUs):
    // the checks that need no file. ArchitectureTracer adds those against the
    // architecture's own limits.
    void validate() const;
};

// The GPUs of configuration as a checked plan; throws io::InputError naming the
// parameter at fault (ShardingPlan::validate).
ShardingPlan shardingPlanOf(const EstimateConfiguration &configuration);

// Returns the mode and autocast names the configuration accepts.
const std::vector<std::string> &modeNames();
const std::vector<std::string> &autocastNames();

// Returns the optimizer, its implementation's, dtype and loss names the
// configuration accepts, for help and errors.
const std::vector<std::string> &optimizerNames();
const std::vector<std::string> &optimizerImplementationNames();
const std::vector<std::string> &attentionNames();
const std::vector<std::string> &dtypeNames();
const std::vector<std::string> &lossNames();

// The largest batch size an estimate takes or searches: no card holds a batch this
// large of anything.
inline constexpr std::int64_t largestBatch = std::int64_t{1} << 24;

// Parses "3,224,224" (positive whole numbers) into a sample shape; throws
// io::InputError naming option for anything else.
std::vector<std::int64_t> parseSampleShape(const std::string &text, const std::string &option);

// Parses "3,224,224; 20": one sample's shape per model input, separated by ';'
// (spaces ignored), each as parseSampleShape; throws io::InputError naming option
// for a bad shape, and when there is none.
std::vector<std::vector<std::int64_t>> parseSampleShapes(const std::string &text, const std::string &option);

// Parses one batch size, a whole number from 1 to largestBatch; throws
// io::InputError naming option for anything else.
std::int64_t parseBatchSize(const std::string &text, const std::string &option);

// Parses "8, 32,128" into batch sizes (parseBatchSize each, empty items skipped);
// throws io::InputError naming option for a bad one, and when there is none.
std::vector<std::int64_t> parseBatchSizes(const std::string &text, const std::string &option);

} // namespace gpumem::estimate
