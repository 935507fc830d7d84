// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/Calibration.h"
#include "io/Json.h"
#include "models/Regressor.h"

#include <optional>
#include <string>

namespace gpumem::calibration {

// The calibration as the "calibration" member of model.json stores it:
//   {"score": "difficulty", "coverage": 0.95, "calibration_rows": 480,
//    "scores": [ascending...],
//    "difficulty": {"floor", "columns", "means", "deviations", "coefficients", "lowest", "highest"},
//    "spread": {"floor"}}
// ("difficulty" and "spread" only for the score of that name). A model folder is untrusted input, so the
// reader bounds every count and refuses anything non-finite or unsorted.

// The most scores a stored calibration may hold.
constexpr std::size_t maxCalibrationScores = 1u << 20;
// The largest magnitude of a stored score: a margin of 10^15 MiB (or times the
// prediction) is beyond any memory, and smaller scores keep every bound finite
// where the predictions and their scales are.
constexpr double maxCalibrationScoreMagnitude = 1e15;

// The one JSON form of a calibration, above.
void to_json(io::Json &json, const Calibration &calibration);
// The "difficulty" member of that form.
void to_json(io::Json &json, const DifficultyModel &difficulty);
// Reads what to_json() wrote, checking every count against the columns and every
// number for being finite. Throws io::InputError (without a file) when malformed.
void from_json(const io::Json &json, DifficultyModel &difficulty);

// Reads a value to_json() wrote (a calibration has no empty state to read into).
// Throws io::InputError (without a file) when malformed.
Calibration readCalibration(const io::Json &value);

// Returns the calibration stored in metadata, the model.json of directory that
// models::readModelMetadata() read, or nothing when the model was trained without
// one. Throws io::InputError naming directory/model.json when its "calibration"
// member is malformed.
std::optional<Calibration> readStoredCalibration(const io::Json &metadata, const std::string &directory);

// Saves model as a model folder (Regressor::save) with calibration, when given,
// as the "calibration" member of its model.json, in the one atomic save.
void saveCalibratedModel(const models::Regressor &model, const std::optional<Calibration> &calibration,
                         const std::string &directory);

} // namespace gpumem::calibration
