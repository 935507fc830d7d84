// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/EstimateConfiguration.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpumem::cli {

// The options of `gpumem estimate` that describe a language model and its recipe
// (--config, --seq-len, precision, LoRA and QLoRA, checkpointing, inference), as
// the command line gives them.
struct LanguageModelOptions
{
    std::optional<std::uint64_t> sequenceLength;
    std::optional<std::uint64_t> loraRank;
    std::vector<std::string> loraTargets;
    std::optional<std::uint64_t> generatedTokens;
    bool maxSequenceLength = false; // also search the longest sequence that fits
    bool minGpus = false;           // also search the fewest GPUs that hold the job
};

// Declares the options on app, writing into configuration and options.
void addLanguageModelOptions(CLI::App &app, estimate::EstimateConfiguration &configuration,
                             LanguageModelOptions &options);

// Completes configuration from options; throws io::InputError when a language-model
// option is given for a TorchScript model, or when --config and MODEL.pt are both given.
void completeLanguageModelSettings(const CLI::App &app, const LanguageModelOptions &options,
                                   estimate::EstimateConfiguration &configuration);

// One line naming the GPUs of a job on several ("8 GPUs, fsdp, tensor parallel 2"),
// or "" for one GPU.
std::string gpusText(const estimate::EstimateConfiguration &configuration);

// One line naming the recipe, for the text output.
std::string recipeText(const estimate::EstimateConfiguration &configuration);

} // namespace gpumem::cli
