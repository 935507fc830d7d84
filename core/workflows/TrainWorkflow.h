// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/BoundReport.h"
#include "calibration/CalibratedFit.h"
#include "data/Dataset.h"
#include "evaluation/Splits.h"
#include "models/Hyperparameters.h"
#include "models/NetworkModelName.h"
#include "models/Regressor.h"
#include "runs/RunRecord.h"
#include "training/TrainingProgress.h"
#include "workflows/DataWorkflow.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::workflows {

// What one training is asked: which registry model with which values, where,
// which rows are held out to score it, and whether an upper bound is calibrated.
// `gpumem train`, `gpumem sweep`, the Training page and the Runs page's sweeps
// fill it in.
struct TrainConfiguration
{
    std::string name; // the run record's name
    std::string model = models::kNetworkModelName;
    models::Hyperparameters hyperparameters;
    models::ComputeSettings compute;
    // The share of rows held out of the fit and scored (train --test-fraction, a
    // sweep's validation share); 0: every row trains.
    double holdOutFraction = 0.0;
    std::optional<std::uint64_t> holdOutSeed; // the hold-out's seed; compute.seed when absent
    std::optional<calibration::CalibrationSettings> calibration;
    // A model to train instead of a new `model` (train --resume-from: a loaded
    // network prepared to continue); the record keeps its own hyperparameters.
    std::shared_ptr<models::Regressor> continuing;

    // Throws io::InputError, naming the parameter, for a hold-out share outside
    // [0, 1) or a calibration asked of a continued training. train() calls it first.
    void validate() const;
};

// A finished training.
struct TrainResult
{
    // The trained model; null when the fit was cancelled or diverged.
    std::shared_ptr<models::Regressor> model;
    // The training's result, the rows that fitted and calibrated, every row's
    // prediction and the calibration (absent unless asked for and fitted).
    calibration::CalibratedFit fit;
    evaluation::Split split;           // split.test: the held-out rows (empty without a hold-out)
    std::vector<Eigen::Index> fitRows; // the rows the kept model was trained on
    runs::RunRecord record;            // what the Runs page and `gpumem sweep` keep of it
    std::string device;                // where it trained, e.g. "cpu", whether or not it finished
    // Every row's upper bound at the calibration's coverage; empty without a calibration.
    Eigen::VectorXd bounds;
    // What the bound does on the held-out rows: with a calibration and a hold-out.
    std::optional<calibration::BoundReport> boundReport;

    // Whether every epoch ran or the fit stopped early: a model to keep.
    bool succeeded() const { return model != nullptr; }
};

// Trains configuration's model on dataset: holds out holdOutFraction of the rows
// (seeded, evaluation::holdOutSplit), fits the rest (through
// calibration::fitCalibrated when a calibration is asked for) while recording
// every batch and epoch and passing them to observer with the share of the fit
// done as progressChanged, then predicts every row and, with a calibration,
// bounds every row and reports the bound on the held-out rows. The record's validation
// metrics are taken on the held-out rows or, without a hold-out, on the rows the
// fit itself set aside to judge its epochs (the network's validation_fraction),
// so a run trained on every row is scored like a sweep's. A cancelled or
// diverged fit still returns its record, without metrics or model. Throws
// io::InputError for unusable values or data. Runs on the calling thread, with
// configuration.compute.threads as its compute threads (runtime::setComputeThreads).
TrainResult train(const data::Dataset &dataset, const TrainConfiguration &configuration,
                  training::TrainingObserver *observer = nullptr, runtime::OperationControl *control = nullptr);

// Continues the training of the network saved in folder (a stopped run's, saved
// with its optimizer) up to epochs in all, or its own epoch count: loads it with
// configuration.compute into configuration.continuing and takes its seed, so that
// the continued run keeps the stopped one's split and validation rows. seed, when
// the user chose one, must be the one it was trained with. Returns the epochs it
// had finished. Throws io::InputError (naming the parameter) for a folder that
// holds no network, no training state, or already epochs or more epochs.
int resumeTraining(TrainConfiguration &configuration, const std::string &folder,
                   std::optional<std::uint64_t> epochs = std::nullopt,
                   std::optional<std::uint64_t> seed = std::nullopt);

// The CSV of every table row's prediction, actual value, split (train, calibration
// or test) and, with a calibration, upper bound, in file order: the table's rows
// that data left out have empty cells. trained must come from data's dataset.
std::string predictionsCsv(const DataSelection &data, const TrainResult &trained);

// Saves trained's model as a model folder at directory, with its calibration in
// model.json in the same atomic write. Throws io::InputError as Regressor::save does.
void saveTrainedModel(const TrainResult &trained, const std::string &directory);

} // namespace gpumem::workflows
