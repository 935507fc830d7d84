// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "prediction/Predictor.h"

#include <map>
#include <optional>
#include <string>
#include <variant>

namespace gpumem::prediction {

// One job's inputs by column name: a number for a numeric column; for a
// categorical one its category, for the layer sequence its list as a file holds
// it ("[('linear', 512, 401920), ('ReLU', 512, 0)]").
using JobValues = std::map<std::string, std::variant<double, std::string>>;

// Predicts the one job values describes with saved, as predictTable() predicts a
// file's row holding the same cells, without writing the job as CSV: one row of
// predictions with its extrapolations and, when saved has a calibration, its upper
// bound at coverage (the stored level when not given). Values the model does not
// read are ignored. Throws io::InputError naming the column for a value the model
// needs that values lacks, is missing or not finite, is of the other kind (text
// for a numeric column, a number for a text one), or is a malformed layer
// sequence, and as predictTable() does.
Predictions predictJob(const SavedModel &saved, const JobValues &values, std::optional<double> coverage = std::nullopt);

} // namespace gpumem::prediction
