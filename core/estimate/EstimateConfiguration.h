// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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
    std::int64_t vocabulary = 0;         // tokens: ids are drawn in [0, vocabulary)
    std::string optimizer = "adam";      // sgd, sgd_momentum, adam or adamw
    std::string dtype = "float32";       // float32, float64, bfloat16 or float16
    std::string loss = "cross_entropy";  // cross_entropy, mse or sum
    std::optional<std::int64_t> classes; // cross_entropy: targets in [0, classes); default the output's last dimension
    int steps = 2;                       // training steps traced (2: the optimizer state exists in the second)
};

// Returns the optimizer, dtype and loss names the configuration accepts, for help and errors.
const std::vector<std::string> &optimizerNames();
const std::vector<std::string> &dtypeNames();
const std::vector<std::string> &lossNames();

// Parses "3,224,224" (positive whole numbers) into a sample shape; throws
// io::InputError naming option for anything else.
std::vector<std::int64_t> parseSampleShape(const std::string &text, const std::string &option);

} // namespace gpumem::estimate
