// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"
#include "data/Table.h"
#include "prediction/Predictor.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::prediction {

// What a prediction of a whole file is asked: `gpumem predict` fills it from its
// options, the Predict page from its file dialogs.
struct FilePredictionRequest
{
    std::string inputPath; // the jobs, with the columns the model was trained on
    char delimiter = 0;    // 0 detects it
    data::BadCellPolicy policy = data::BadCellPolicy::Fail;
    std::optional<double> coverage; // the upper bound's level; unset: the stored one
    std::string outputPath;         // where the prediction file is written, atomically; empty: nowhere
};

// A file's predictions: the table as read, its predictions, the text of the
// prediction file (predictionFile()) and the warnings, each on one line: the rows
// left out, then the jobs whose predictions extrapolate (the first named by its
// line, then how many there are when more than one does).
struct FilePredictions
{
    data::Table table;
    Predictions predictions;
    std::string csv;
    std::size_t extrapolating = 0; // the jobs whose predictions extrapolate (extrapolates())
    std::vector<std::string> warnings;
};

// Reads request.inputPath as prediction reads jobs (predictionLoadOptions()),
// predicts every usable row with saved (predictTable()) and writes the prediction
// file to request.outputPath when given: the whole of `gpumem predict`, which the
// Predict page shares. Throws io::InputError as loadTable() and predictTable() do,
// and when the output cannot be written.
FilePredictions predictFile(const SavedModel &saved, const FilePredictionRequest &request);

// Checks that saved can predict the jobs at inputPath before anyone waits for it (a
// file dialog, the prediction itself): throws io::InputError as loadTable() does,
// and naming a column the model needs that the file lacks (rolesForModel()).
void checkPredictable(const SavedModel &saved, const std::string &inputPath);

} // namespace gpumem::prediction
