#include "cli/ModelOptions.h"

#include "cli/Warnings.h"
#include "io/InputError.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/Presets.h"
#include "models/RegressorRegistry.h"
#include "runtime/ThreadSettings.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <thread>

namespace gpumem::cli {

namespace fs = std::filesystem;

namespace {

const char *const kNetwork = "bigru_transformer";

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
    const std::string owner = model.empty() ? std::string(kNetwork) : model;
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
    const models::Hyperparameters known =
        owner == kNetwork ? models::neuralNetworkHyperparameters() : models::regressorHyperparameters(owner);
    if (known.contains(name))
        return;
    std::string hint;
    if (model.empty()) {
        // A plain --set is the network's; the name may be a baseline's, written without its model.
        for (const auto &other : registered)
            if (other != kNetwork && models::regressorHyperparameters(other).contains(name)) {
                hint = " (for " + other + " write " + other + "." + name + "=VALUE)";
                break;
            }
    }
    throw io::InputError("--set: unknown hyperparameter " + io::quoteForMessage(name) + " of " + owner + hint +
                         "; known: " + known.namesText());
}

} // namespace

void addModelOptions(ArgumentParser &parser)
{
    parser.option("preset", "NAME", "start from a preset: default, fast (seconds, for demos), gpu (larger)")
        .option("config", "FILE.json", "hyperparameters from a JSON object, applied after the preset")
        .option("set", "NAME=VALUE", "set one hyperparameter, after the preset and config (repeatable)");
}

void addComputeOptions(ArgumentParser &parser)
{
    parser.option("device", "auto|cpu|cuda", "where to compute (default auto: CUDA when available)")
        .option("threads", "N",
                "CPU threads (default 1; 0 = one per core): training splits each batch across N workers")
        .option("seed", "N", "random seed for weights, shuffling and splits (default 42)");
}

models::Hyperparameters hyperparametersFrom(const ParsedArguments &arguments)
{
    for (const auto &assignment : arguments.list("set")) // comma-split is harmless: values hold no commas
        checkAssignment(assignment);
    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    if (arguments.has("preset"))
        models::applyHyperparameterFile(hyperparameters, models::presetPath(arguments.value("preset")));
    if (arguments.has("config"))
        models::applyHyperparameterFile(hyperparameters, arguments.value("config"));
    for (const auto &assignment : arguments.list("set"))
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

models::Hyperparameters hyperparametersFor(const std::string &model, const ParsedArguments &arguments)
{
    // Built even for another model, so that a bad preset, --config or --set is
    // refused instead of silently having no effect.
    models::Hyperparameters hyperparameters = hyperparametersFrom(arguments);
    if (model != kNetwork)
        hyperparameters = models::regressorHyperparameters(model);
    for (const auto &assignment : arguments.list("set"))
        if (modelOfAssignment(assignment) == model)
            hyperparameters.setAssignment(assignment.substr(model.size() + 1));
    return hyperparameters;
}

models::ComputeSettings computeSettingsFrom(const ParsedArguments &arguments)
{
    models::ComputeSettings compute;
    compute.device = arguments.value("device", "auto");
    // Not every command declares --seed (predict has nothing to draw).
    compute.seed = arguments.declares("seed") ? parseWholeNumber(arguments.value("seed", "42"), "--seed") : 42;
    const unsigned hardware = hardwareThreads();
    const auto threads = parseWholeNumber(arguments.value("threads", "1"), "--threads");
    // Threads beyond the cores only add start-up and synchronisation; thousands of
    // them turned seconds of work into minutes.
    if (threads > hardware)
        warn("--threads " + std::to_string(threads) + " is more than this machine's " + std::to_string(hardware) +
             " hardware threads; using " + std::to_string(hardware));
    // One thread by default: on small models more kernel threads mostly add
    // synchronisation; training uses N threads as N workers per batch instead.
    compute.threads = static_cast<int>(threads == 0 ? hardware : std::min<std::uint64_t>(threads, hardware));
    if (arguments.declares("jobs") && arguments.has("jobs")) {
        // The experiment runner applies the cap; the warning comes before the long run.
        const auto jobs = parseWholeNumber(arguments.value("jobs"), "--jobs", true);
        if (jobs > hardware)
            warn("--jobs " + std::to_string(jobs) + " is more than this machine's " + std::to_string(hardware) +
                 " hardware threads; running at most " + std::to_string(hardware) + " fits at once");
    }
    runtime::setComputeThreads(compute.threads);
    return compute;
}

} // namespace gpumem::cli
