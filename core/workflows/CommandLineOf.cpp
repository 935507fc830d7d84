// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/CommandLineOf.h"

#include "calibration/Calibration.h"
#include "io/NumberText.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "workflows/ParameterFlags.h"

#include <algorithm>

namespace gpumem::workflows {

namespace {

// Appends a parameter's flag and its value; the flag comes from the one table of flags.
void addFlag(std::vector<std::string> &arguments, std::string_view parameter, const std::string &value)
{
    arguments.emplace_back(*flagOf(parameter));
    arguments.push_back(value);
}

void addOption(std::vector<std::string> &arguments, const char *flag, const std::string &value)
{
    arguments.emplace_back(flag);
    arguments.push_back(value);
}

std::string joined(const std::vector<std::string> &items)
{
    std::string text;
    for (const auto &item : items)
        text += (text.empty() ? "" : ",") + item;
    return text;
}

std::string delimiterName(char delimiter)
{
    return delimiter == ',' ? "comma" : delimiter == ';' ? "semicolon" : "tab";
}

void addDataArguments(std::vector<std::string> &arguments, const DataRequest &data)
{
    arguments.push_back(data.path);
    if (!data.target.empty())
        addOption(arguments, "--target", data.target);
    if (!data.features.empty())
        addOption(arguments, "--features", joined(data.features));
    if (!data.ignored.empty())
        addOption(arguments, "--ignore", joined(data.ignored));
    if (!data.sequenceColumn.empty())
        addOption(arguments, "--sequence-column", data.sequenceColumn);
    if (data.badCells != data::BadCellPolicy::Fail)
        addOption(arguments, "--on-bad-cell", std::string(data::badCellPolicyName(data.badCells)));
    if (data.delimiter != 0)
        addOption(arguments, "--delimiter", delimiterName(data.delimiter));
    if (data.decimalComma)
        arguments.emplace_back("--decimal-comma");
    if (data.categoricalLimit)
        addOption(arguments, "--categorical-limit", std::to_string(*data.categoricalLimit));
}

// The device, threads and seed, where they differ from `gpumem`'s defaults.
void addComputeArguments(std::vector<std::string> &arguments, const models::ComputeSettings &compute)
{
    if (compute.device != "auto")
        addFlag(arguments, "device", compute.device);
    if (compute.threads != 1)
        addOption(arguments, "--threads", std::to_string(compute.threads));
    if (compute.seed != models::ComputeSettings{}.seed)
        addFlag(arguments, "seed", std::to_string(compute.seed));
}

void addCalibrationArguments(std::vector<std::string> &arguments,
                             const std::optional<calibration::CalibrationSettings> &settings)
{
    if (!settings)
        return;
    const calibration::CalibrationSettings defaults;
    addFlag(arguments, "coverage", io::csvNumber(settings->coverage));
    if (settings->fraction != defaults.fraction)
        addOption(arguments, "--calibration-fraction", io::csvNumber(settings->fraction));
    if (settings->score != defaults.score)
        addOption(arguments, "--calibration-score", std::string(calibration::scoreName(settings->score)));
}

// --set prefix+NAME=VALUE for each value of values that differs from start (the
// values' text is exact: a real number in its shortest text that reads back).
void addChangedValues(std::vector<std::string> &arguments, const std::string &prefix,
                      const models::Hyperparameters &values, const models::Hyperparameters &start)
{
    for (const auto &spec : values.specs())
        if (values.text(spec.name) != start.text(spec.name))
            addOption(arguments, "--set", prefix + spec.name + "=" + values.text(spec.name));
}

} // namespace

std::vector<std::string> argumentsOf(const DataRequest &data, const CompareConfiguration &configuration)
{
    const evaluation::ExperimentSettings &settings = configuration.experiment;
    std::vector<std::string> arguments{"compare"};
    addDataArguments(arguments, data);
    std::vector<std::string> names;
    for (const auto &model : settings.models)
        names.push_back(model.name);
    addOption(arguments, "--models", joined(names));
    if (settings.testFraction > 0.0) {
        addOption(arguments, "--test-fraction", io::csvNumber(settings.testFraction));
    } else {
        if (settings.folds != evaluation::ExperimentSettings{}.folds)
            addOption(arguments, "--folds", std::to_string(settings.folds));
        if (settings.repeats != 1)
            addOption(arguments, "--repeats", std::to_string(settings.repeats));
        if (!configuration.groupBy.empty())
            addOption(arguments, "--group-by", configuration.groupBy);
    }
    // `gpumem compare` seeds the splits and every model with --seed.
    models::ComputeSettings compute = settings.compute;
    compute.seed = settings.seed;
    addComputeArguments(arguments, compute);
    if (settings.parallelFits != 1)
        addOption(arguments, "--jobs", std::to_string(settings.parallelFits));
    const models::Hyperparameters networkStart = models::neuralNetworkHyperparameters();
    for (const auto &model : settings.models)
        addChangedValues(arguments, model.name + ".", model.hyperparameters, startingValues(model.name, networkStart));
    addCalibrationArguments(arguments, settings.calibration);
    if (settings.explanation)
        arguments.emplace_back("--explain");
    return arguments;
}

std::vector<std::string> argumentsOf(const DataRequest &data, const TrainConfiguration &configuration,
                                     const std::string &out)
{
    std::vector<std::string> arguments{"train"};
    addDataArguments(arguments, data);
    if (configuration.model != models::kNetworkModelName)
        addOption(arguments, "--model", configuration.model);
    addChangedValues(arguments, "", configuration.hyperparameters,
                     startingValues(configuration.model, models::neuralNetworkHyperparameters()));
    addComputeArguments(arguments, configuration.compute);
    if (configuration.holdOutFraction > 0.0)
        addOption(arguments, "--test-fraction", io::csvNumber(configuration.holdOutFraction));
    if (configuration.holdOutSeed)
        addOption(arguments, "--split-seed", std::to_string(*configuration.holdOutSeed));
    addCalibrationArguments(arguments, configuration.calibration);
    addFlag(arguments, "output_file", out);
    return arguments;
}

std::vector<std::string> argumentsOf(const EstimateSettings &settings)
{
    const estimate::EstimateConfiguration &model = settings.model;
    const estimate::EstimateConfiguration defaults;
    std::vector<std::string> arguments{"estimate"};
    if (model.architecture.empty()) {
        arguments.push_back(model.modelPath);
        for (const auto &shape : model.inputShapes) {
            std::vector<std::string> sizes;
            for (const std::int64_t size : shape)
                sizes.push_back(std::to_string(size));
            addOption(arguments, "--input-shape", joined(sizes));
        }
        if (model.inputKind == estimate::InputKind::Tokens) {
            addOption(arguments, "--input-kind", "tokens");
            addOption(arguments, "--vocabulary", std::to_string(model.vocabulary));
        }
        if (model.loss != defaults.loss)
            addOption(arguments, "--loss", model.loss);
        if (model.classes)
            addOption(arguments, "--classes", std::to_string(*model.classes));
    } else {
        addFlag(arguments, "architecture", model.architecture);
        if (model.sequenceLength != defaults.sequenceLength)
            addFlag(arguments, "seq_len", std::to_string(model.sequenceLength));
        if (!model.autocast.empty())
            addFlag(arguments, "autocast", model.autocast);
        if (model.loraRank > 0)
            addFlag(arguments, "lora_rank", std::to_string(model.loraRank));
        if (!model.loraTargets.empty())
            addFlag(arguments, "lora_targets", joined(model.loraTargets));
        if (model.loraAlpha != defaults.loraAlpha)
            addFlag(arguments, "lora_alpha", io::csvNumber(model.loraAlpha));
        if (model.loraDropout != defaults.loraDropout)
            addFlag(arguments, "lora_dropout", io::csvNumber(model.loraDropout));
        if (model.qlora)
            arguments.emplace_back(*flagOf("qlora"));
        if (model.gradientCheckpointing)
            arguments.emplace_back("--gradient-checkpointing");
        if (model.mode != defaults.mode)
            addFlag(arguments, "mode", model.mode);
        if (model.generatedTokens != defaults.generatedTokens)
            addFlag(arguments, "generated_tokens", std::to_string(model.generatedTokens));
        if (model.gpus != defaults.gpus)
            addFlag(arguments, "gpus", std::to_string(model.gpus));
        if (model.sharding != defaults.sharding)
            addFlag(arguments, "sharding", model.sharding);
        if (model.tensorParallel != defaults.tensorParallel)
            addFlag(arguments, "tensor_parallel", std::to_string(model.tensorParallel));
    }
    if (model.optimizer != defaults.optimizer)
        addFlag(arguments, "optimizer", model.optimizer);
    if (model.optimizerImplementation != defaults.optimizerImplementation)
        addOption(arguments, "--optimizer-implementation", model.optimizerImplementation);
    if (model.attention != defaults.attention)
        addOption(arguments, "--attention", model.attention);
    if (model.dtype != defaults.dtype)
        addFlag(arguments, "dtype", model.dtype);
    if (model.steps != defaults.steps)
        addFlag(arguments, "steps", std::to_string(model.steps));
    if (model.clipGradNorm)
        addOption(arguments, "--clip-grad-norm", io::csvNumber(*model.clipGradNorm));
    std::vector<std::string> batches;
    for (const std::int64_t batch : settings.request.batchSizes)
        batches.push_back(std::to_string(batch));
    if (!batches.empty())
        addOption(arguments, "--batch-size", joined(batches));
    if (settings.request.maxBatch)
        arguments.emplace_back("--max-batch");
    if (settings.gpu != EstimateSettings{}.gpu)
        addFlag(arguments, "gpu", settings.gpu);
    if (settings.contextMib)
        addOption(arguments, "--context-mib", io::csvNumber(*settings.contextMib));
    return arguments;
}

std::string shellQuoted(const std::string &text)
{
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               std::string_view("-_./,:=+@%").find(c) != std::string_view::npos;
    });
    if (plain)
        return text;
    std::string quoted = "'";
    for (const char c : text)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string commandLineOf(const std::vector<std::string> &arguments)
{
    std::string line = "gpumem";
    for (const auto &argument : arguments)
        (line += ' ') += shellQuoted(argument);
    return line;
}

} // namespace gpumem::workflows
