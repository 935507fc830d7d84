// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The optimisation loop shared by the project's LibTorch models. Include only
// from .cpp files: this header pulls in <torch/torch.h>.

#include "training/TrainingCheckpoint.h"
#include "training/TrainingProgress.h"

#include <Eigen/Core>
#include <torch/torch.h>

#include <functional>
#include <vector>

namespace gpumem::training {

struct TrainerSettings
{
    std::string optimizer = "adamw"; // adam
    double learningRate = 2e-3;
    double weightDecay = 1e-4;
    std::int64_t batchSize = 64;
    int epochs = 150;
    std::string schedule = "one_cycle"; // cosine, plateau, constant
    double warmupFraction = 0.1;
    double gradientClip = 1.0; // 0 = off
    int patience = 0;          // 0 = no early stopping
    std::uint64_t seed = 42;   // shuffles the rows each epoch
    // CPU worker threads per batch: each takes an equal share of the batch's rows,
    // runs its forward and backward pass with single-threaded kernels, and the
    // gradients add up to the whole batch's. 1 runs the batch on the calling thread.
    int workers = 1;
    // Optional: the RMSE of the given rows in the target's units, called after each
    // epoch (model in evaluation mode, without gradients) with the validation rows,
    // reported as EpochProgress::validationRmse, and with an even sample of the
    // training rows, reported as EpochProgress::trainRmse.
    std::function<double(const std::vector<Eigen::Index> &rows)> targetRmse;
};

// Returns the mean loss of the given rows as a scalar tensor. Called with
// gradients enabled and the model in training mode for training batches, and
// under NoGradGuard with the model in evaluation mode for validation.
using BatchLoss = std::function<torch::Tensor(const std::vector<Eigen::Index> &rows)>;

// Trains model on trainingRows in shuffled mini-batches with Adam or AdamW, the
// learning-rate schedule, gradient clipping and, when validationRows is not empty,
// early stopping that restores the weights of the best validation epoch. Reports every
// batch and epoch to observer and honours control before every batch. A NaN or infinite
// loss stops training with StopReason::NotFinite, and a cancel with
// StopReason::Cancelled, both with the weights of the best epoch so far (the last
// finished one without validation; none when no epoch finished, bestEpoch 0).
// Deterministic on the CPU for a given seed and thread count. Runs on the calling
// thread, plus settings.workers - 1 helper threads per batch; loss must then be safe to
// call from several threads at once (a forward pass without dropout randomness shared
// between rows is). With checkpoint, a checkpoint that holds a training continues it
// (model must hold the weights it was taken with): the optimizer state, step, epoch
// count and early-stopping state are restored, and the epochs after checkpoint's run up
// to settings.epochs. On return checkpoint describes the epoch whose weights the model
// holds (unchanged when no new epoch became that epoch).
TrainingResult trainModel(torch::nn::Module &model, const TrainerSettings &settings,
                          const std::vector<Eigen::Index> &trainingRows,
                          const std::vector<Eigen::Index> &validationRows, const BatchLoss &loss,
                          TrainingObserver *observer, OperationControl *control,
                          TrainingCheckpoint *checkpoint = nullptr);

} // namespace gpumem::training
