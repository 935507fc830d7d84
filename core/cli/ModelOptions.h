// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/DataOptions.h"
#include "models/Hyperparameters.h"
#include "models/NetworkModelName.h"
#include "models/NeuralNetworkRegressor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace gpumem::cli {

// The options that choose the neural model's hyperparameters, shared by train,
// describe-model and compare.
struct ModelOptions
{
    std::optional<std::string> preset;    // --preset NAME
    std::optional<std::string> config;    // --config FILE.json
    std::vector<std::string> assignments; // --set NAME=VALUE or MODEL.NAME=VALUE, repeatable
};

// Where a command computes, shared by train, compare and predict.
struct ComputeOptions
{
    std::string device = "auto";       // --device auto|cpu|cuda
    std::uint64_t threads = 1;         // --threads N, 0 = one per hardware thread
    std::uint64_t seed = 42;           // --seed N, where the command has it
    std::optional<std::uint64_t> jobs; // --jobs N, where the command has it (compare)
};

// Declares --preset, --config and --set on app, bound to options.
void addModelOptions(CLI::App &app, ModelOptions &options);
// Declares --device, --threads and --seed on app, bound to options.
void addComputeOptions(CLI::App &app, ComputeOptions &options);

// What a command that trains one registry model on a data file reads: the file, the
// data, model and compute options, and --model. Shared by train and sweep.
struct TrainingInputs
{
    std::string path; // DATA.csv, required
    DataOptions data;
    ModelOptions model;
    ComputeOptions compute;
    std::string modelName = models::kNetworkModelName; // --model
};

// Declares DATA.csv and the options of TrainingInputs on app, bound to inputs.
void addTrainingInputs(CLI::App &app, TrainingInputs &inputs);

// Starts from the neural network's defaults, then applies the preset, the
// --config file and every unqualified --set in order. First checks every --set,
// qualified ones too, against its model's hyperparameters. Throws io::InputError
// naming the file or hyperparameter and listing the known names.
models::Hyperparameters hyperparametersFrom(const ModelOptions &options);

// Returns the model an assignment names before a dot ("random_forest" for
// "random_forest.n_estimators=200"), or "" for an unqualified one ("epochs=20").
std::string modelOfAssignment(const std::string &assignment);

// Returns the hyperparameters of a registry model: the neural network's as
// hyperparametersFrom() builds them, any other model's defaults; then every
// --set qualified with the model's name ("adaboost.loss=square"). Checks the
// preset, --config and every --set even when they are for another model.
models::Hyperparameters hyperparametersFor(const std::string &model, const ModelOptions &options);

// Applies every --set qualified with model's name to values.
void applyQualifiedAssignments(const std::string &model, const ModelOptions &options, models::Hyperparameters &values);

// Returns the compute settings of options; the workflow that computes applies
// the thread count. --threads above the machine's hardware threads is
// capped with a warning (cli::warn), and so is --jobs when given (the
// experiment runner applies that cap).
models::ComputeSettings computeSettingsFrom(const ComputeOptions &options);

} // namespace gpumem::cli
