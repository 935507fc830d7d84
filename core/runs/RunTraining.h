// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"
#include "models/Hyperparameters.h"
#include "models/Regressor.h"
#include "runs/RunRecord.h"
#include "training/TrainingProgress.h"

#include <memory>
#include <string>

namespace gpumem::runs {

// How one run trains: which registry model with which values, where, and the
// share of rows held out to score it (as `gpumem train --test-fraction`).
struct RunSettings
{
    std::string name; // the record's name
    std::string model = "bigru_transformer";
    models::Hyperparameters hyperparameters;
    models::ComputeSettings compute;
    double validationFraction = 0.2; // 0: fit on every row, no validation metrics
};

// A finished run: its record, and the model when the fit succeeded (else null).
struct TrainedRun
{
    RunRecord record;
    std::shared_ptr<models::Regressor> model;
};

// Trains one run on dataset: holds out validationFraction of the rows (seeded
// with compute.seed, evaluation::holdOutSplit), fits the model on the rest while
// recording every batch and epoch (and forwarding them to observer, with the
// share of the fit done as progressChanged; see FitProgressRelay), then scores
// it on both parts. A cancelled or diverged fit still returns its record, without
// metrics or model. Throws io::InputError for unusable values or data. Runs on
// the calling thread (set its compute threads first; see runtime::setComputeThreads).
TrainedRun trainRun(const data::Dataset &dataset, const RunSettings &settings,
                    training::TrainingObserver *observer = nullptr, runtime::OperationControl *control = nullptr);

} // namespace gpumem::runs
