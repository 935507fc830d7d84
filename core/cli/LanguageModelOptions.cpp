// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/LanguageModelOptions.h"

#include "architectures/ArchitectureLibrary.h"
#include "architectures/ParameterCount.h"
#include "cli/CommandParser.h"
#include "io/InputError.h"

#include <algorithm>

namespace gpumem::cli {

namespace {

// The options that only a language model takes.
const std::vector<const char *> &languageModelOnlyOptions()
{
    static const std::vector<const char *> options = {
        "--seq-len",    "--autocast",        "--lora",           "--lora-targets",
        "--lora-alpha", "--lora-dropout",    "--qlora",          "--gradient-checkpointing",
        "--mode",       "--generate",        "--clip-grad-norm", "--gpus",
        "--sharding",   "--tensor-parallel", "--min-gpus"};
    return options;
}

} // namespace

void addLanguageModelOptions(CLI::App &app, estimate::EstimateConfiguration &configuration,
                             LanguageModelOptions &options)
{
    std::string names;
    for (const auto &name : architectures::architectureNames())
        names += (names.empty() ? "" : ", ") + name;
    app.add_option("--config", configuration.architecture,
                   "a language model's config.json, its folder, or a shipped name (" + names + ")")
        ->type_name("FILE|NAME");
    app.add_option("--seq-len", options.sequenceLength, "tokens per sample (default 512)")
        ->type_name("N")
        ->transform(wholeNumber(1, std::uint64_t{1} << 24));
    app.add_option("--autocast", configuration.autocast,
                   "bfloat16 or float16: float32 weights, torch.autocast's compute dtype")
        ->type_name("T");
    app.add_option("--lora", options.loraRank, "LoRA adapters of this rank on a frozen base (peft)")
        ->type_name("RANK")
        ->transform(wholeNumber(1, 65536));
    addListOption(app, "--lora-targets", options.loraTargets, "NAME[,NAME…]",
                  "the linear layers LoRA adapts (e.g. q_proj,v_proj; all-linear)");
    app.add_option("--lora-alpha", configuration.loraAlpha, "peft's lora_alpha (default: the rank)")
        ->type_name("A")
        ->transform(finiteNumberIn(0.0, 1e6));
    app.add_option("--lora-dropout", configuration.loraDropout, "dropout on the adapters' input (default 0)")
        ->type_name("P")
        ->transform(finiteNumberIn(0.0, 0.999));
    app.add_flag("--qlora", configuration.qlora, "the base in 4-bit NF4 (bitsandbytes), computed in --dtype");
    app.add_flag("--gradient-checkpointing", configuration.gradientCheckpointing,
                 "recompute each layer in backward (transformers' gradient_checkpointing_enable)");
    app.add_option("--mode", configuration.mode, "training (default) or inference (the key/value cache, no gradients)")
        ->type_name("M");
    app.add_option("--generate", options.generatedTokens, "inference: tokens generated after the --seq-len prompt")
        ->type_name("N")
        ->transform(wholeNumber(0, std::uint64_t{1} << 24));
    app.add_flag("--max-seq-len", options.maxSequenceLength,
                 "also search the longest --seq-len that fits the GPU at the first batch size");
    std::string schemes;
    for (const auto &name : estimate::shardingNames())
        schemes += (schemes.empty() ? "" : "|") + name;
    app.add_option("--gpus", configuration.gpus, "GPUs the job is spread over; figures are each GPU's (default 1)")
        ->type_name("N")
        ->transform(wholeNumber(1, static_cast<std::uint64_t>(estimate::largestGpuCount)));
    app.add_option("--sharding", configuration.sharding,
                   "how the data-parallel GPUs share the model: " + schemes + " (DDP, DeepSpeed ZeRO, FSDP2)")
        ->type_name("S");
    app.add_option("--tensor-parallel", configuration.tensorParallel,
                   "GPUs among --gpus that split every layer (Megatron); the rest are data-parallel")
        ->type_name("T")
        ->transform(wholeNumber(1, static_cast<std::uint64_t>(estimate::largestGpuCount)));
    app.add_flag("--min-gpus", options.minGpus,
                 "also search the fewest GPUs of the profile that hold the job at the first batch size");
    app.add_option("--clip-grad-norm", configuration.clipGradNorm,
                   "clip_grad_norm_ before each optimizer step (its transient norms)")
        ->type_name("MAX")
        ->transform(finiteNumberIn(0.0, 1e12));
}

void completeLanguageModelSettings(const CLI::App &app, const LanguageModelOptions &options,
                                   estimate::EstimateConfiguration &configuration)
{
    if (configuration.architecture.empty()) {
        for (const char *option : languageModelOnlyOptions())
            if (app.count(option) != 0)
                throw io::InputError(std::string(option) + " needs --config (a language model's config.json or name)");
        return;
    }
    if (!configuration.modelPath.empty())
        throw io::InputError("give either MODEL.pt or --config, not both");
    for (const char *option : {"--input-shape", "--input-kind", "--vocabulary", "--loss", "--classes", "--attention"})
        if (app.count(option) != 0)
            throw io::InputError(std::string(option) +
                                 " does not go with --config: the config gives the model's input, loss and attention");
    if (options.sequenceLength)
        configuration.sequenceLength = static_cast<std::int64_t>(*options.sequenceLength);
    if (options.loraRank)
        configuration.loraRank = static_cast<std::int64_t>(*options.loraRank);
    configuration.loraTargets.clear();
    for (const auto &text : options.loraTargets)
        for (auto &target : architectures::parseLoraTargets(text))
            configuration.loraTargets.push_back(std::move(target));
    if (options.generatedTokens)
        configuration.generatedTokens = static_cast<std::int64_t>(*options.generatedTokens);
}

std::string gpusText(const estimate::EstimateConfiguration &configuration)
{
    if (configuration.gpus == 1)
        return {};
    std::string text = std::to_string(configuration.gpus) + " GPUs";
    if (configuration.sharding != "none")
        text += ", " + configuration.sharding;
    if (configuration.tensorParallel > 1)
        text += ", tensor parallel " + std::to_string(configuration.tensorParallel);
    return text;
}

std::string recipeText(const estimate::EstimateConfiguration &configuration)
{
    std::string text = configuration.mode + ", " + std::to_string(configuration.sequenceLength) + " tokens, " +
                       (configuration.autocast.empty() ? configuration.dtype : "autocast " + configuration.autocast);
    if (configuration.mode == "inference")
        return text + ", " + std::to_string(configuration.generatedTokens) + " generated";
    if (configuration.loraRank > 0) {
        text += configuration.qlora ? ", QLoRA rank " : ", LoRA rank ";
        text += std::to_string(configuration.loraRank) + " on ";
        for (std::size_t i = 0; i < configuration.loraTargets.size(); ++i)
            text += (i == 0 ? "" : ",") + configuration.loraTargets[i];
    } else {
        text += ", full fine-tune";
    }
    if (configuration.gradientCheckpointing)
        text += ", gradient checkpointing";
    return text;
}

} // namespace gpumem::cli
