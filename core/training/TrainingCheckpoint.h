// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Include only from .cpp files: this header pulls in <torch/torch.h>.

#include "training/LearningRateSchedule.h"

#include <torch/torch.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace gpumem::training {

// Where a training stood at the end of the epoch whose weights the model keeps,
// so that a later run continues it as if it had never stopped: the optimizer's
// state and the trainer's position. A model folder stores it beside the weights.
struct TrainingCheckpoint
{
    int epochsDone = 0;                                        // epochs finished; 0: nothing to continue
    std::int64_t step = 0;                                     // optimisation steps taken, the schedule's position
    double bestLoss = std::numeric_limits<double>::infinity(); // the judged loss of that epoch
    int epochsWithoutImprovement = 0;                          // the early-stopping counter
    LearningRateSchedule::Memory schedule;
    // The optimizer's state, "PARAMETER.FIELD" → tensor (on the training's device,
    // or the CPU when read from a folder): for Adam and AdamW, exp_avg and
    // exp_avg_sq (float, the parameter's shape) and step (int64 scalar) of every
    // parameter that has taken a step.
    std::vector<std::pair<std::string, torch::Tensor>> optimizerState;

    bool holdsTraining() const { return epochsDone > 0; }
};

// The state fields an optimizer keeps per parameter, with their dtype ("F32" or
// "I64") and whether they have the parameter's shape (else a scalar).
struct OptimizerStateField
{
    const char *name;
    const char *dtype;
    bool parameterShaped;
};
const std::vector<OptimizerStateField> &optimizerStateFields(const std::string &optimizer);

// Copies optimizer's per-parameter state (Adam or AdamW), named by model's parameter names.
std::vector<std::pair<std::string, torch::Tensor>> captureOptimizerState(torch::optim::Optimizer &optimizer,
                                                                         const torch::nn::Module &model);
// Puts state captured by captureOptimizerState() for the same parameters back into
// optimizer, on each parameter's device. Throws std::invalid_argument when a
// parameter's fields are incomplete or mis-shaped (storage checks them first).
void restoreOptimizerState(torch::optim::Optimizer &optimizer, const torch::nn::Module &model,
                           const std::vector<std::pair<std::string, torch::Tensor>> &state);

} // namespace gpumem::training
