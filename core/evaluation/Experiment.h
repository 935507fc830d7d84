// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/BoundMetrics.h"
#include "calibration/CalibratedFit.h"
#include "data/Dataset.h"
#include "evaluation/InputEditor.h"
#include "evaluation/Metrics.h"
#include "evaluation/PartialDependence.h"
#include "evaluation/PermutationImportance.h"
#include "evaluation/Significance.h"
#include "evaluation/Splits.h"
#include "models/Hyperparameters.h"
#include "models/Regressor.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"
#include "training/TrainingProgress.h"

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::evaluation {

// One model of a comparison: its registry name (models::regressorNames()) and
// the hyperparameters to fit it with.
struct ModelSpec
{
    std::string name;
    models::Hyperparameters hyperparameters;
};

// What explains a comparison's models beside their scores, measured on every split
// right after its fit, while the fitted model exists: permutation importance on
// the split's test rows (PermutationImportance.h) and partial dependence on every
// numeric input (PartialDependence.h), the same procedure and the same shuffles
// and rows for every model.
struct ExplanationSettings
{
    // Rebuilds the dataset's rows with one input changed; required. Shared, as the
    // settings are copied into the thread that runs them; it must not outlive its table.
    std::shared_ptr<const InputEditor> inputs;
    int importanceRepeats = 5;      // shuffles per input and split
    int gridPoints = 25;            // values per input's partial dependence
    std::size_t averagedRows = 100; // the rows (chosen with the seed) a partial dependence averages over
};

// What a comparison runs. testFraction > 0 asks for one seeded hold-out split;
// otherwise repeats repetitions of folds-fold cross-validation, each repetition
// with its own fold assignment and its own training seed
// (repetitionSeed(seed, repetition)), so that a figure's spread over seeds is part
// of the result. Every model sees the same splits.
struct ExperimentSettings
{
    std::vector<ModelSpec> models;
    int folds = 5;
    int repeats = 1; // repetitions of the k folds; a hold-out has one
    double testFraction = 0.0;
    // One group label per dataset row, or empty. Set: grouped folds (groupedKFoldSplits),
    // so every group is tested by a model that never trained on it. Not with a hold-out.
    std::vector<std::int64_t> groups;
    std::uint64_t seed = 42; // the splits and every model's own seed, of repetition 0
    models::ComputeSettings compute;
    // How many (model, fold) fits run at the same time, at most one per hardware
    // thread. Results never depend on it.
    int parallelFits = 1;
    // Set: every (model, fold) fit is calibrated inside that fold's training rows
    // (calibration::fitCalibrated) and its upper bound at this coverage is scored
    // on the fold's test rows beside the point metrics. Unset: no bound at all.
    std::optional<calibration::CalibrationSettings> calibration;
    // Set: every fit is also explained (ExplanationSettings). Unset: nothing is measured beyond the scores.
    std::optional<ExplanationSettings> explanation;
};

// The points of each fold's trade-off curve (margin swept from 0 to the largest score).
constexpr int tradeOffPointCount = 51;

// The calibrated upper bound of one fold's fit, scored on the fold's test rows.
// The fixed-headroom references are the rules a user would reach for instead:
// "+10%" on the prediction, and the smallest percentage that reaches the
// coverage on the same calibration rows the bound used.
struct FoldBound
{
    std::size_t calibrationRowCount = 0;       // training rows set aside to calibrate
    std::vector<Eigen::Index> calibrationRows; // which dataset rows (not kept in reports)
    double margin = 0.0;                       // in score units, at the coverage
    calibration::BoundMetrics bound;           // the calibrated bound
    calibration::BoundMetrics tenPercent;
    double fixedHeadroomPercent = 0.0; // chosen on the calibration rows
    calibration::BoundMetrics fixedHeadroom;
    std::vector<calibration::TradeOffPoint> curve; // on the test rows
};

// A model's calibrated bounds over every fold: the per-fold values live in
// FoldResult::bound, these are their means (the curve averaged point by point)
// over the folds that have a bound (a diverged fit has none); rows are summed.
struct ModelBound
{
    calibration::BoundMetrics bound;
    calibration::BoundMetrics tenPercent;
    double fixedHeadroomPercent = 0.0;
    calibration::BoundMetrics fixedHeadroom;
    std::vector<calibration::TradeOffPoint> curve;
    Eigen::VectorXd
        upperBounds; // per dataset row: the bound while it was a test row of the first repetition, NaN if never
};

// One model fitted on one split and scored on its test rows.
struct FoldResult
{
    int fold = 0;       // 0-based index into ExperimentResult::splits
    int repetition = 0; // 0-based repetition of the cross-validation that made the split
    RegressionMetrics metrics;
    double trainSeconds = 0.0;
    double predictSeconds = 0.0;
    training::StopReason stopReason = training::StopReason::Completed;
    std::vector<training::EpochProgress> epochs; // the loss curve, for iterative models
    std::optional<FoldBound> bound;              // set when the experiment calibrates
    // When the experiment explains: the RMSE increase per input and shuffle ([input][repeat], MiB),
    // and the mean prediction per partial dependence grid and value ([grid][value], MiB).
    std::vector<std::vector<double>> importance;
    std::vector<std::vector<double>> partialDependence;
};

// Everything one model produced over the splits.
struct ModelResult
{
    std::string name;  // registry name, e.g. "random_forest"
    std::string title; // display name, e.g. "Random forest"
    models::Hyperparameters hyperparameters;
    std::vector<FoldResult> folds;       // in split order: repetition by repetition
    RegressionMetrics mean;              // mean over every fit (all repetitions' folds) of each metric
    RegressionMetrics standardDeviation; // sample standard deviation over every fit (0 for one)
    // Sample standard deviation over the repetitions of each repetition's mean: how
    // much the figure a user gets from one cross-validation depends on its seed (0 for one repetition).
    RegressionMetrics repetitionSpread;
    double trainSeconds = 0.0;   // summed over folds
    double predictSeconds = 0.0; // summed over folds
    // Per dataset row: the prediction made while it was a test row of the first
    // repetition, NaN if never.
    Eigen::VectorXd predictions;
    std::vector<std::string> warnings;
    std::optional<ModelBound> bound; // set when the experiment calibrates
    // When the experiment explains: per input (ExperimentResult::inputs) its importance
    // pooled over every fit, and per grid (ExperimentResult::partialDependenceGrids) its curve.
    std::vector<InputImportance> importance;
    std::vector<PartialDependenceCurve> partialDependence;
};

// A model that could not be fitted or scored, and why (one line).
struct ModelFailure
{
    std::string model;
    std::string message;
};

// The result of a comparison. models holds the models whose every fold
// finished; a model that failed is in failures instead (and named in warnings),
// and the others still run.
struct ExperimentResult
{
    std::vector<Split> splits;       // repeats × folds of cross-validation, repetition by repetition, or one hold-out
    int repeats = 1;                 // how many repetitions splits holds; splits.size() is a multiple of it
    Eigen::VectorXd actual;          // the target of every dataset row, beside ModelResult::predictions
    std::vector<ModelResult> models; // in the order of ExperimentSettings::models
    std::string best;                // the model with the lowest mean RMSE
    std::vector<PairedTest> significance; // each other model against the best
    std::vector<ModelFailure> failures;
    bool cancelled = false;
    double seconds = 0.0; // wall-clock time of the whole run
    std::vector<std::string> warnings;
    // The calibration every model's bound was fitted with; unset when none was asked for.
    std::optional<calibration::CalibrationSettings> calibration;
    // When the experiment explains: the inputs (feature and sequence columns, in file
    // order) that ModelResult::importance scores, and the grids of the partial dependences.
    std::vector<std::string> inputs;
    std::vector<PartialDependenceGrid> partialDependenceGrids;
};

// Returns how many splits one repetition of result holds (its k, or 1 for a hold-out).
std::size_t splitsPerRepetition(const ExperimentResult &result);

// Receives the experiment's progress. The runner calls it from worker threads,
// one call at a time (it serialises them), so implementations need no lock of
// their own but must be quick and must not block. fold is 0-based.
// progressChanged hears the share (0..1) of the experiment's work done, weighted
// by each fit's expected time (see WeightedProgress), in steps of a tenth of a percent.
class ExperimentObserver : public virtual runtime::ProgressObserver
{
  public:
    virtual void fitStarted(const std::string & /*model*/, int /*fold*/, int /*folds*/) {}
    virtual void batchFinished(const std::string & /*model*/, int /*fold*/, const training::BatchProgress &) {}
    virtual void epochFinished(const std::string & /*model*/, int /*fold*/, const training::EpochProgress &) {}
    virtual void foldFinished(const std::string & /*model*/, const FoldResult &) {}
    virtual void modelFinished(const ModelResult &) {}
};

// Fits every model of settings on identical splits of dataset and scores each on
// its test rows. control (optional) pauses or cancels every running fit; a
// cancelled run returns promptly with cancelled set. Throws io::InputError for
// unusable settings (unknown model, too few rows for the folds, a coverage the
// folds' calibration rows cannot serve) before fitting,
// and when every model failed; rethrows std::bad_alloc.
ExperimentResult runExperiment(const data::Dataset &dataset, const ExperimentSettings &settings,
                               ExperimentObserver *observer = nullptr, runtime::OperationControl *control = nullptr);

} // namespace gpumem::evaluation
