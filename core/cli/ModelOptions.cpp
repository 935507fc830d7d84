#include "cli/ModelOptions.h"

#include "io/InputError.h"
#include "io/JsonValue.h"
#include "models/NeuralNetworkHyperparameters.h"
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

std::vector<fs::path> presetDirectories()
{
    std::vector<fs::path> directories;
    if (const char *overridden = std::getenv("GPUMEM_PRESET_DIR"))
        directories.emplace_back(overridden);
    std::error_code error;
    const fs::path executable = fs::read_symlink("/proc/self/exe", error);
    if (!error)
        directories.push_back(executable.parent_path().parent_path() / "share/gpumem-workbench/presets");
    directories.emplace_back(GPUMEM_SOURCE_PRESET_DIR);
    return directories;
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

std::string presetPath(const std::string &name)
{
    for (const auto &directory : presetDirectories()) {
        const fs::path candidate = directory / (name + ".json");
        std::error_code error;
        if (fs::is_regular_file(candidate, error))
            return candidate.string();
    }
    std::string known;
    for (const auto &preset : presetNames())
        known += (known.empty() ? "" : ", ") + preset;
    throw io::InputError("--preset: no preset named " + io::quoteForMessage(name) +
                         (known.empty() ? std::string("; no preset folder found") : "; presets: " + known));
}

std::vector<std::string> presetNames()
{
    std::set<std::string> names;
    for (const auto &directory : presetDirectories()) {
        std::error_code error;
        for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
            if (it->path().extension() == ".json")
                names.insert(it->path().stem().string());
    }
    return {names.begin(), names.end()};
}

models::Hyperparameters hyperparametersFrom(const ParsedArguments &arguments)
{
    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    if (arguments.has("preset")) {
        const std::string path = presetPath(arguments.value("preset"));
        hyperparameters.apply(io::readJsonFile(path), path);
    }
    if (arguments.has("config")) {
        const std::string path = arguments.value("config");
        hyperparameters.apply(io::readJsonFile(path), path);
    }
    for (const auto &assignment : arguments.list("set")) // comma-split is harmless: values hold no commas
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
    models::Hyperparameters hyperparameters =
        model == "bigru_transformer" ? hyperparametersFrom(arguments) : models::regressorHyperparameters(model);
    for (const auto &assignment : arguments.list("set"))
        if (modelOfAssignment(assignment) == model)
            hyperparameters.setAssignment(assignment.substr(model.size() + 1));
    return hyperparameters;
}

models::ComputeSettings computeSettingsFrom(const ParsedArguments &arguments)
{
    models::ComputeSettings compute;
    compute.device = arguments.value("device", "auto");
    compute.seed = parseWholeNumber(arguments.value("seed", "42"), "--seed");
    const auto threads = parseWholeNumber(arguments.value("threads", "1"), "--threads");
    if (threads > 1024)
        throw io::InputError("--threads takes 0 to 1024");
    // One thread by default: on small models more kernel threads mostly add
    // synchronisation; training uses N threads as N workers per batch instead.
    compute.threads = static_cast<int>(threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads);
    runtime::setComputeThreads(compute.threads);
    return compute;
}

} // namespace gpumem::cli
