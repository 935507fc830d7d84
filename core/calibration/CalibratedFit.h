// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/Calibration.h"
#include "calibration/CalibrationRows.h"
#include "models/Regressor.h"

#include <optional>

namespace gpumem::calibration {

// How fitCalibrated() sets rows aside and scores them.
struct CalibrationSettings
{
    Score score = Score::Difficulty; // the score with the least over-allocation measured (docs/calibration.md)
    double coverage = 0.95;          // the default level the calibration serves
    double fraction = 0.2;           // the share of the training rows that calibrate
    std::uint64_t seed = 42;         // which training rows calibrate (and, for Difficulty, how they halve)
    // Fit the model once more on every training row after calibrating, so that setting
    // rows aside costs the point prediction nothing: the bound keeps the margins the
    // calibration rows measured on the model that never saw them. Those margins then
    // belong to a model trained on fewer rows, which errs at least as much, so the bound
    // stays on the safe side (bench/README.md measures it). Doubles the training time.
    // On for train, compare and the workbench alike, so that all three keep the same model.
    bool refit = true;
};

// A model fitted on part of some training rows and calibrated on the rest.
struct CalibratedFit
{
    CalibrationRows rows;
    training::TrainingResult training;
    Eigen::VectorXd predicted;              // every dataset row; empty when the fit did not finish
    std::optional<Calibration> calibration; // absent when the fit was cancelled or diverged
    bool refitted = false;                  // the model kept was trained on every training row
    // The predictions the calibration rows were scored on: predicted, or with refitted the
    // first fit's, which never saw those rows (what a headroom chosen on them must use).
    Eigen::VectorXd calibrationPredicted;
    // What the score reads of the kept model beside the features, one value per dataset
    // row (memberSpreadForScore(): the relative member spread for Spread, else empty):
    // pass it to the calibration's scales() and upperBounds() with predicted.
    Eigen::VectorXd memberSpread;
};

// Splits trainingRows (splitCalibrationRows), fits model on the fit rows with
// observer and control, predicts every row of dataset and calibrates on the
// calibration rows; with settings.refit it then fits model on all trainingRows and
// predicted holds that model's predictions (the difficulty score reads only the numeric columns of the
// model's schema, so the calibration asks predict for no column the model lacks).
// Only trainingRows are read for the fit and the calibration, so
// a caller that passes one compare fold's training rows calibrates inside that
// fold. Throws io::InputError for bad settings or a model that cannot be fitted,
// and before fitting, for the spread score and a model that is not an ensemble.
CalibratedFit fitCalibrated(models::Regressor &model, const data::Dataset &dataset,
                            const std::vector<Eigen::Index> &trainingRows, const CalibrationSettings &settings,
                            training::TrainingObserver *observer = nullptr,
                            runtime::OperationControl *control = nullptr);

} // namespace gpumem::calibration
