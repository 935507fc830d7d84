// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/ModelOptions.h"

#include "cli/CommandParser.h"
#include "cli/Warnings.h"
#include "io/InputError.h"
#include "models/NetworkModelName.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/Presets.h"
#include "models/RegressorRegistry.h"
#include "workflows/CompareWorkflow.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <thread>

namespace gpumem::cli {

namespace fs = std::filesystem;

namespace {

unsigned hardwareThreads()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

// Refuses an assignment that names no model or no hyperparameter of its model;
// without this check it would be ignored whenever that model is not the one fitted.
void checkAssignment(const std::string &assignment)
{
    const std::size_t equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0)
        throw io::InputError("--set expects NAME=VALUE or MODEL.NAME=VALUE, not " + io::quoteForMessage(assignment));
    const std::string model = modelOfAssignment(assignment);
    const std::string owner = model.empty() ? std::string(models::kNetworkModelName) : model;
    const std::size_t nameBegin = model.empty() ? 0 : model.size() + 1;
    const std::string name = assignment.substr(nameBegin, equals - nameBegin);
    const std::vector<std::string> registered = models::regressorNames();
    if (std::find(registered.begin(), registered.end(), owner) == registered.end()) {
        std::string known;
        for (const auto &registeredName : registered)
            known += (known.empty() ? "" : ", ") + registeredName;
        throw io::InputError("--set: unknown model " + io::quoteForMessage(owner) + " in " +
                             io::quoteForMessage(assignment) + "; known: " + known);
    }
    const models::Hyperparameters known = owner == models::kNetworkModelName ? models::neuralNetworkHyperparameters()
                                                                             : models::regressorHyperparameters(owner);
    if (known.contains(name))
        return;
    std::string hint;
    if (model.empty()) {
        // A plain --set is the network's; the name may be a baseline's, written without its model.
        for (const auto &other : registered)
            if (other != models::kNetworkModelName && models::regressorHyperparameters(other).contains(name)) {
                hint = " (for " + other + " write " + other + "." + name + "=VALUE)";
                break;
            }
    }
    throw io::InputError("--set: unknown hyperparameter " + io::quoteForMessage(name) + " of " + owner + hint +
                         "; known: " + known.namesText());
}

} // namespace

void addModelOptions(CLI::App &app, ModelOptions &options)
{
    app.add_option("--preset", options.preset,
                   "start from a preset: default (60 epochs; the built-in values), quick (40 epochs), "
                   "fast (seconds, for demos), gpu (larger)")
        ->type_name("NAME");
    app.add_option("--config", options.config, "hyperparameters from a JSON object, applied after the preset")
        ->type_name("FILE.json");
    addListOption(app, "--set", options.assignments, "NAME=VALUE",
                  "set one hyperparameter, after the preset and config (repeatable)");
}

void addComputeOptions(CLI::App &app, ComputeOptions &options)
{
    app.add_option("--device", options.device, "where to compute (default auto: CUDA when available)")
        ->type_name("auto|cpu|cuda");
    app.add_option("--threads", options.threads,
                   "CPU threads (default 1; 0 = one per core): training splits each batch across N workers")
        ->type_name("N")
        ->transform(wholeNumber());
    app.add_option("--seed", options.seed, "random seed for weights, shuffling and splits (default 42)")
        ->type_name("N")
        ->transform(wholeNumber());
}

void addTrainingInputs(CLI::App &app, TrainingInputs &inputs)
{
    app.add_option("DATA.csv", inputs.path, "the measurements, one job per row, with a header row")->required();
    addDataOptions(app, inputs.data);
    addModelOptions(app, inputs.model);
    addComputeOptions(app, inputs.compute);
    app.add_option("--model", inputs.modelName,
                   "the model to train (default bigru_transformer; see gpumem compare --help)")
        ->type_name("NAME");
}

models::Hyperparameters hyperparametersFrom(const ModelOptions &options)
{
    // --set splits at commas like every list option: harmless, as values hold no commas.
    const std::vector<std::string> assignments = nonEmptyItems(options.assignments);
    for (const auto &assignment : assignments)
        checkAssignment(assignment);
    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    if (options.preset)
        models::applyHyperparameterFile(hyperparameters, models::presetPath(*options.preset));
    if (options.config)
        models::applyHyperparameterFile(hyperparameters, *options.config);
    for (const auto &assignment : assignments)
        if (modelOfAssignment(assignment).empty())
            hyperparameters.setAssignment(assignment);
    return hyperparameters;
}

std::string modelOfAssignment(const std::string &assignment)
{
    const std::size_t equals = assignment.find('=');
    const std::size_t dot = assignment.find('.');
    if (dot == std::string::npos || (equals != std::string::npos && dot > equals))
        return {};
    return assignment.substr(0, dot);
}

models::Hyperparameters hyperparametersFor(const std::string &model, const ModelOptions &options)
{
    // Built even for another model, so that a bad preset, --config or --set is
    // refused instead of silently having no effect.
    models::Hyperparameters hyperparameters = workflows::startingValues(model, hyperparametersFrom(options));
    applyQualifiedAssignments(model, options, hyperparameters);
    return hyperparameters;
}

void applyQualifiedAssignments(const std::string &model, const ModelOptions &options, models::Hyperparameters &values)
{
    for (const auto &assignment : nonEmptyItems(options.assignments))
        if (modelOfAssignment(assignment) == model)
            values.setAssignment(assignment.substr(model.size() + 1));
}

models::ComputeSettings computeSettingsFrom(const ComputeOptions &options)
{
    models::ComputeSettings compute;
    compute.device = options.device;
    compute.seed = options.seed;
    const unsigned hardware = hardwareThreads();
    const std::uint64_t threads = options.threads;
    // Threads beyond the cores only add start-up and synchronisation; thousands of
    // them turned seconds of work into minutes.
    if (threads > hardware)
        warn("--threads " + std::to_string(threads) + " is more than this machine's " + std::to_string(hardware) +
             " hardware threads; using " + std::to_string(hardware));
    // One thread by default: on small models more kernel threads mostly add
    // synchronisation; training uses N threads as N workers per batch instead.
    compute.threads = static_cast<int>(threads == 0 ? hardware : std::min<std::uint64_t>(threads, hardware));
    if (options.jobs) {
        // The experiment runner applies the cap; the warning comes before the long run.
        const std::uint64_t jobs = *options.jobs;
        if (jobs > hardware)
            warn("--jobs " + std::to_string(jobs) + " is more than this machine's " + std::to_string(hardware) +
                 " hardware threads; running at most " + std::to_string(hardware) + " fits at once");
    }
    return compute;
}

} // namespace gpumem::cli
