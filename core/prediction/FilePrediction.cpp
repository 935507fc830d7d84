// SPDX-License-Identifier: GPL-3.0-or-later
#include "prediction/FilePrediction.h"

#include "data/TableLoader.h"
#include "io/AtomicFileWriter.h"

namespace gpumem::prediction {

namespace {

data::Table loadJobs(const FilePredictionRequest &request)
{
    data::TableLoadOptions options = predictionLoadOptions();
    options.delimiter = request.delimiter;
    return data::loadTable(request.inputPath, options);
}

// One line about the first job that extrapolates, and one counting them when several do.
std::vector<std::string> extrapolationWarnings(const Predictions &predictions, std::size_t extrapolating)
{
    std::vector<std::string> warnings;
    for (std::size_t row = 0; row < predictions.extrapolations.size() && warnings.empty(); ++row)
        if (extrapolates(predictions, row))
            warnings.push_back("line " + std::to_string(predictions.dataset.rowLines()[row]) +
                               " lies outside the training data (" + describeExtrapolation(predictions, row) +
                               "); the column 'extrapolated' names every such job");
    if (extrapolating > 1)
        warnings.push_back(std::to_string(extrapolating) + " of " + std::to_string(predictions.extrapolations.size()) +
                           " jobs lie outside the training data: their predictions extrapolate");
    return warnings;
}

} // namespace

FilePredictions predictFile(const SavedModel &saved, const FilePredictionRequest &request)
{
    FilePredictions result{loadJobs(request), {}, {}, 0, {}};
    result.predictions = predictTable(saved, result.table, request.policy, request.coverage);
    for (std::size_t row = 0; row < result.predictions.extrapolations.size(); ++row)
        result.extrapolating += extrapolates(result.predictions, row) ? 1 : 0;
    result.warnings = result.predictions.warnings;
    for (auto &warning : extrapolationWarnings(result.predictions, result.extrapolating))
        result.warnings.push_back(std::move(warning));
    result.csv = predictionFile(result.table, result.predictions);
    if (!request.outputPath.empty())
        io::writeFileAtomically(request.outputPath, result.csv);
    return result;
}

void checkPredictable(const SavedModel &saved, const std::string &inputPath)
{
    rolesForModel(saved.model->schema(), loadJobs({inputPath, 0, data::BadCellPolicy::Fail, std::nullopt, {}}));
}

} // namespace gpumem::prediction
