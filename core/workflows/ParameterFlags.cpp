// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/ParameterFlags.h"

#include "io/InputError.h"

namespace gpumem::workflows {

const std::vector<ParameterFlag> &parameterFlags()
{
    static const std::vector<ParameterFlag> flags{
        // The estimate of a user's model (estimate::EstimateConfiguration, workflows::EstimateSettings).
        {"architecture", "--config", "the language model's config.json, model folder or library name"},
        {"seq_len", "--seq-len", "tokens per sample"},
        {"generated_tokens", "--generate", "tokens generated after the prompt, in inference"},
        {"mode", "--mode", "training, or inference with the key/value cache"},
        {"dtype", "--dtype", "the weights' dtype"},
        {"autocast", "--autocast", "autocast's compute dtype over float32 weights"},
        {"optimizer", "--optimizer", "the traced optimizer"},
        {"lora_rank", "--lora", "the rank of LoRA adapters on a frozen base"},
        {"lora_targets", "--lora-targets", "the linear layers that get LoRA adapters"},
        {"lora_alpha", "--lora-alpha", "peft's lora_alpha"},
        {"lora_dropout", "--lora-dropout", "dropout on the adapters' input"},
        {"qlora", "--qlora", "the base in 4-bit NF4 under the adapters"},
        {"gpus", "--gpus", "GPUs the job is spread over"},
        {"tensor_parallel", "--tensor-parallel", "the tensor-parallel GPUs among them"},
        {"sharding", "--sharding", "the data-parallel sharding scheme"},
        {"gpu", "--gpu", "a GPU profile's name or file"},
        {"timeline", "--timeline", "the file the memory timeline is written to"},
        // The probe (probe::ProbeOptions, workflows::ProbeConfiguration).
        {"device", "--device", "where jobs are measured or models computed"},
        {"family", "--family", "the family of probed jobs"},
        {"count", "--count", "configurations a probe draws"},
        {"seed", "--seed", "the seed of the draws"},
        {"steps", "--steps", "training steps per probed job"},
        {"sizes", "--sizes", "the sizes of probed jobs, for a CPU or a GPU"},
        {"output_file", "--out", "the file a run writes"},
        // Prediction and training with an upper bound.
        {"coverage", "--coverage", "the share of jobs the upper bound covers"},
        // A training continued from a saved network (workflows::resumeTraining).
        {"epochs", "--epochs", "the epochs a network trains in all"},
        {"resume_from", "--resume-from", "the saved network a training continues"},
        // The data a model learns from (data::RoleRequest, data::BadCellPolicy).
        {"target", "--target", "the column to predict"},
        {"features", "--features", "the only columns used as features"},
        {"ignored", "--ignore", "the columns left out"},
        {"sequence_column", "--sequence-column", "the column of layer sequences"},
        {"on_bad_cell", "--on-bad-cell", "what a missing or non-finite cell in a used column does"},
        // A model, its hyperparameters and its training (models::Hyperparameters, the presets).
        {"preset", "--preset", "the named hyperparameter values a model starts from"},
        {"hyperparameter", "--set", "one hyperparameter set as NAME=VALUE"},
        {"test_fraction", "--test-fraction", "the share of rows held out to score on"},
        {"calibration_score", "--calibration-score", "the score the upper bound is calibrated on"},
        {"calibration_fraction", "--calibration-fraction", "the share of rows held out to calibrate the bound"},
        // The estimate of a TorchScript model (estimate::EstimateConfiguration).
        {"input_shape", "--input-shape", "one sample's shape, the batch prepended"},
        {"loss", "--loss", "the loss the traced steps minimise"},
        {"classes", "--classes", "the target classes of cross_entropy"},
        {"optimizer_implementation", "--optimizer-implementation", "the optimizer's kernels: foreach, fused, for_loop"},
        // A sweep (runs::SweepPlan, workflows::SweepConfiguration).
        {"sweep_parameter", "--param", "a hyperparameter and the values a sweep tries"},
        {"random_trials", "--random", "the random combinations a sweep tries instead of the grid"},
        {"shard", "--shard", "the slice of a run's list this run takes"},
        // A comparison (workflows::CompareConfiguration).
        {"repeats", "--repeats", "repetitions of the cross-validation's folds"},
        {"group_by", "--group-by", "the column whose values fold together"},
    };
    return flags;
}

std::optional<std::string_view> flagOf(std::string_view parameter)
{
    for (const ParameterFlag &entry : parameterFlags())
        if (entry.parameter == parameter)
            return entry.flag;
    return std::nullopt;
}

std::string withFlags(const std::string &message)
{
    return io::renderParameters(message, [](std::string_view name, std::string_view placeholder) {
        std::string text(flagOf(name).value_or(name));
        if (!placeholder.empty())
            (text += ' ') += placeholder;
        return text;
    });
}

} // namespace gpumem::workflows
