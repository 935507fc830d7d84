// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/Calibration.h"
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/FeatureEncoder.h"
#include "data/Table.h"
#include "data/TableLoader.h"
#include "models/Regressor.h"

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::prediction {

// Predicting jobs with a saved model, the one pipeline `gpumem predict` and the
// workbench's Predict page share: the same columns, the same rows, the same numbers.

// A model folder as prediction needs it: the model and, when it was trained with
// --coverage, the calibration of its upper bound.
struct SavedModel
{
    std::shared_ptr<models::Regressor> model;
    std::optional<calibration::Calibration> calibration;
    int threads = 1; // the compute threads predictTable runs with (loadSavedModel: its compute's)
};

// Loads any model folder (see models::loadRegressor) with its stored calibration.
// Throws io::InputError naming the file.
SavedModel loadSavedModel(const std::string &directory, models::ComputeSettings compute = {});

// How jobs to predict are read: every text column may be one the model was
// trained with, so none becomes an unusable identifier.
data::TableLoadOptions predictionLoadOptions();

// Returns the roles that give schema's columns to the model: its numeric and
// categorical features, its sequence column, and the target when table has it
// (for `actual` and `error`). Throws io::InputError naming a column the model
// needs that table lacks, or one that is no longer numeric.
data::RoleRequest rolesForModel(const models::ModelSchema &schema, const data::Table &table);

// The predictions of one table.
struct Predictions
{
    std::vector<std::size_t> usableRows; // the table rows predicted, in order (the bad-cell policy drops others)
    data::Dataset dataset;               // those rows as the model reads them
    Eigen::VectorXd predicted;           // MiB, one per dataset row
    Eigen::VectorXd upperBounds;         // MiB at coverage; empty without a calibration
    double coverage = 0.0;               // the level of upperBounds
    std::vector<std::string> warnings;   // rows left out, and why
    // Per dataset row, its values outside the model's training ranges and its unseen
    // categories (empty for a model folder that keeps no ranges): predictions there
    // extrapolate, and deserve less trust.
    std::vector<std::vector<data::Extrapolation>> extrapolations;
    // Per dataset row, why the allocator simulation that the model takes as an input
    // cannot follow the job (models::SimulatedPeaks::unfollowed), or empty; empty
    // altogether for a model without that input. The row's prediction rests on a
    // stand-in for it, and extrapolates as well.
    std::vector<std::string> unsimulated;
    bool rangesKnown = false; // whether the model keeps its training ranges
};

// Returns the extrapolations of one row in words, joined by "; " (empty when it has none).
std::string describeExtrapolations(const std::vector<data::Extrapolation> &extrapolations);

// Whether dataset row row of predictions extrapolates: values outside the training
// ranges, unseen categories, or a job the model's allocator simulation cannot follow.
bool extrapolates(const Predictions &predictions, std::size_t row);
// Returns how dataset row row of predictions extrapolates, in words joined by "; "
// (empty when it does not): what the `extrapolated` column holds.
std::string describeExtrapolation(const Predictions &predictions, std::size_t row);

// Predicts every usable row of table with saved, and the upper bound at coverage
// (the stored level when not given) when saved has a calibration. Throws
// io::InputError for a table that lacks the model's columns, for --coverage
// asked of a model without a calibration or at a level its scores cannot serve,
// and for a prediction or bound that is not finite (a damaged model or
// calibration), naming the line.
Predictions predictTable(const SavedModel &saved, const data::Table &table, data::BadCellPolicy policy,
                         std::optional<double> coverage = std::nullopt);

// Returns the prediction file of table's predictions, what `gpumem predict` and the
// workbench write: predictionCsv() with the upper bounds, and the `extrapolated`
// column whenever the model keeps its training ranges (so scripts can rely on it).
std::string predictionFile(const data::Table &table, const Predictions &predictions);

// Checks, before any data is read, that saved can serve an upper bound at
// coverage (or at its stored level when coverage is not given): throws
// io::InputError naming directory otherwise.
void checkCoverageServable(const SavedModel &saved, const std::string &directory, std::optional<double> coverage);

} // namespace gpumem::prediction
