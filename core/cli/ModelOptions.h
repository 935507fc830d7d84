// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/ArgumentParser.h"
#include "models/Hyperparameters.h"
#include "models/NeuralNetworkRegressor.h"

#include <string>
#include <vector>

namespace gpumem::cli {

// The options that choose the neural model's hyperparameters (--preset, --config,
// --set) and where it computes (--device, --threads, --seed), shared by train,
// describe-model and compare.
void addModelOptions(ArgumentParser &parser);
void addComputeOptions(ArgumentParser &parser);

// Starts from the neural network's defaults, then applies the preset, the
// --config file and every unqualified --set in order. First checks every --set,
// qualified ones too, against its model's hyperparameters. Throws io::InputError
// naming the file or hyperparameter and listing the known names.
models::Hyperparameters hyperparametersFrom(const ParsedArguments &arguments);

// Returns the model an assignment names before a dot ("random_forest" for
// "random_forest.n_estimators=200"), or "" for an unqualified one ("epochs=20").
std::string modelOfAssignment(const std::string &assignment);

// Returns the hyperparameters of a registry model: the neural network's as
// hyperparametersFrom() builds them, any other model's defaults; then every
// --set qualified with the model's name ("adaboost.loss=square"). Checks the
// preset, --config and every --set even when they are for another model.
models::Hyperparameters hyperparametersFor(const std::string &model, const ParsedArguments &arguments);

// Reads --device and --seed (42 where the command has no --seed), and applies
// --threads to LibTorch and OpenBLAS. --threads above the machine's hardware
// threads is capped with a warning (cli::warn), and so is --jobs where the
// command has it (the experiment runner applies that cap).
models::ComputeSettings computeSettingsFrom(const ParsedArguments &arguments);

} // namespace gpumem::cli
