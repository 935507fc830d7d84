// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Metrics.h"
#include "models/Hyperparameters.h"
#include "models/NetworkModelName.h"
#include "training/TrainingProgress.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpumem::runs {

// One optimisation step of a run. Losses are on the model's scaled target.
struct BatchPoint
{
    int epoch = 0;            // 1-based
    std::int64_t batch = 0;   // 1-based within the epoch
    std::int64_t batches = 0; // per epoch
    double trainLoss = 0.0;
};

// One epoch of a run; validationLoss is NaN when the model had no validation rows.
// The losses are on the model's scaled target; the RMSEs in the target's units (MiB),
// NaN when the model does not report them (see training::EpochProgress).
struct EpochPoint
{
    int epoch = 0; // 1-based
    double trainLoss = 0.0;
    double validationLoss = 0.0;
    double learningRate = 0.0;
    double trainRmse = std::numeric_limits<double>::quiet_NaN();
    double validationRmse = std::numeric_limits<double>::quiet_NaN();
};

// Everything the workbench and `gpumem sweep` keep of one training run: what was
// trained with which values, its curves, how it ended and how well it predicts.
// A plain value type: copies may be read from any thread.
struct RunRecord
{
    std::string name; // for people, e.g. "run 3" or "trial 7"
    std::string model = models::kNetworkModelName;
    // Every hyperparameter of the model, in description order.
    std::vector<std::pair<std::string, models::HyperparameterValue>> hyperparameters;
    std::uint64_t seed = 42;
    std::vector<BatchPoint> batches; // at most maxBatchPoints, evenly spaced over the run
    std::vector<EpochPoint> epochs;
    int bestEpoch = 0; // the epoch whose weights the model holds (0 if none)
    std::size_t trainRows = 0;
    std::size_t validationRows = 0; // rows held out of the fit; 0 when none
    std::optional<evaluation::RegressionMetrics> trainMetrics;
    std::optional<evaluation::RegressionMetrics> validationMetrics;
    double seconds = 0.0; // wall-clock training time
    training::StopReason stopReason = training::StopReason::Completed;
    std::string message;     // one line, e.g. why it stopped
    std::string modelFolder; // where the trained model was saved; empty when it was not
    // The data file the run trained on (data::Dataset::source()), so that runs of
    // different files are not compared as one; empty for runs recorded without it.
    std::string dataset;

    // Returns the value of a hyperparameter, or nullptr when the run has none of that name.
    const models::HyperparameterValue *hyperparameter(const std::string &wanted) const;
};

// Returns every value of hyperparameters in description order, as a record keeps them.
std::vector<std::pair<std::string, models::HyperparameterValue>>
hyperparameterValues(const models::Hyperparameters &hyperparameters);

// Returns the point a record keeps of a batch or an epoch the trainer reported
// (a validation loss the trainer marks absent, below 0, becomes NaN).
BatchPoint batchPoint(const training::BatchProgress &progress);
EpochPoint epochPoint(const training::EpochProgress &progress);

// The most per-batch points a record keeps; longer runs are thinned evenly, so
// that a project with many runs stays small.
inline constexpr std::size_t maxBatchPoints = 2000;

// Returns points thinned to at most maxBatchPoints, evenly spaced, keeping the last.
std::vector<BatchPoint> thinnedBatches(const std::vector<BatchPoint> &points);

// Returns a hyperparameter value as people and the command line write it, e.g. "20", "0.002", "true".
std::string hyperparameterValueText(const models::HyperparameterValue &value);
// Returns a hyperparameter value as a number to plot or sort by (booleans 0 and 1), or NaN for text.
double hyperparameterValueNumber(const models::HyperparameterValue &value);

// Returns the index of the run of the lowest RMSE on its validation rows (or,
// without them, its training rows), the first of equals; nothing when no run has metrics.
std::optional<std::size_t> lowestRmse(const std::vector<RunRecord> &records);

// Returns the stop reason a name of training::stopReasonName() gives; throws
// io::InputError for an unknown one.
training::StopReason parseStopReason(const std::string &name);

// The one JSON form of a run, shared by `gpumem sweep` and project files:
// {"name", "model", "hyperparameters": {…}, "seed", "seconds", "stop_reason",
// "message", "best_epoch", "train_rows", "validation_rows", "train_metrics",
// "validation_metrics" (null when absent), "epochs": [[epoch, train loss,
// validation loss, learning rate, train RMSE, validation RMSE], …] (records
// written before the RMSEs hold the first four), "batches": [[epoch, batch,
// batches, loss], …], "model_folder", "dataset" (optional)}. Non-finite numbers
// are written as null.
void to_json(nlohmann::ordered_json &json, const RunRecord &record);
// Reads what to_json wrote; throws io::InputError naming the member at fault.
void from_json(const nlohmann::ordered_json &json, RunRecord &record);

} // namespace gpumem::runs
