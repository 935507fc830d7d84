// SPDX-License-Identifier: GPL-3.0-or-later
#include "prediction/Predictor.h"

#include "prediction/PredictionFile.h"

#include "calibration/CalibrationJson.h"
#include "calibration/MemberSpread.h"
#include "io/InputError.h"
#include "models/ModelFolder.h"
#include "models/RegressorRegistry.h"
#include "models/SimulatedPeakInput.h"
#include "runtime/ThreadSettings.h"

#include <cmath>
#include <limits>

namespace gpumem::prediction {

SavedModel loadSavedModel(const std::string &directory, models::ComputeSettings compute)
{
    // model.json is read once: a folder replaced between two reads could pair one
    // model with another's calibration.
    const io::Json metadata = models::readModelMetadata(directory);
    SavedModel saved;
    saved.threads = compute.threads;
    saved.model = models::loadRegressor(metadata, directory, std::move(compute));
    saved.calibration = calibration::readStoredCalibration(metadata, directory);
    // A folder whose model.json pairs the spread score with a model without members could not serve a bound.
    if (saved.calibration && saved.calibration->score() == calibration::Score::Spread) {
        try {
            calibration::checkModelHasMembers(*saved.model);
        } catch (const io::InputError &error) {
            throw io::InputError(directory + "/model.json", 0, 0, "\"calibration\": " + error.markedMessage());
        }
    }
    return saved;
}

data::TableLoadOptions predictionLoadOptions()
{
    data::TableLoadOptions options;
    options.categoricalLimit = std::numeric_limits<std::size_t>::max();
    return options;
}

data::RoleRequest rolesForModel(const models::ModelSchema &schema, const data::Table &table)
{
    data::RoleRequest request;
    const data::FeatureEncoding &encoding = schema.encoding;
    request.features = encoding.numericColumns;
    for (const auto &categorical : encoding.categoricals)
        request.features.push_back(categorical.column);
    request.sequenceColumn = encoding.sequenceColumn;
    std::vector<std::string> needed = request.features;
    if (!request.sequenceColumn.empty())
        needed.push_back(request.sequenceColumn);
    for (const auto &column : needed)
        if (!table.columnIndex(column))
            throw io::InputError(table.source(), 1, 0,
                                 "missing column " + io::quoteForMessage(column, 60) +
                                     ", which the model was trained with; the file has: " + table.columnNameList());
    for (const auto &column : encoding.numericColumns) {
        const data::Column &found = table.column(*table.columnIndex(column));
        if (found.type != data::ColumnType::Numeric) {
            const data::BadCell cell = found.firstNonNumericCell.value_or(data::BadCell{0, "it has no values"});
            throw io::InputError(table.source(), cell.line, static_cast<std::int64_t>(found.index + 1),
                                 "column " + io::quoteForMessage(column, 60) +
                                     " must be numeric, as in training, but " + cell.reason);
        }
    }
    if (table.columnIndex(schema.target) &&
        table.column(*table.columnIndex(schema.target)).type == data::ColumnType::Numeric)
        request.target = schema.target;
    if (request.features.empty() && request.sequenceColumn.empty())
        throw io::InputError("the model has no input columns");
    return request;
}

void checkCoverageServable(const SavedModel &saved, const std::string &directory, std::optional<double> coverage)
{
    if (coverage && !saved.calibration)
        throw io::InputError(directory, 0, 0,
                             "the model was trained without " + io::parameter("coverage") +
                                 ", so it has no calibration to serve " + io::parameter("coverage") +
                                 " from; train it again with " + io::parameter("coverage"));
    if (!saved.calibration)
        return;
    try {
        saved.calibration->margin(coverage.value_or(saved.calibration->coverage()));
    } catch (const io::InputError &error) {
        throw io::InputError(directory, 0, 0, error.markedMessage());
    }
}

std::string describeExtrapolations(const std::vector<data::Extrapolation> &extrapolations)
{
    std::string text;
    for (const auto &extrapolation : extrapolations)
        text += (text.empty() ? "" : "; ") + data::describeExtrapolation(extrapolation);
    return text;
}

bool extrapolates(const Predictions &predictions, std::size_t row)
{
    return (row < predictions.extrapolations.size() && !predictions.extrapolations[row].empty()) ||
           (row < predictions.unsimulated.size() && !predictions.unsimulated[row].empty());
}

std::string describeExtrapolation(const Predictions &predictions, std::size_t row)
{
    std::string text =
        row < predictions.extrapolations.size() ? describeExtrapolations(predictions.extrapolations[row]) : "";
    if (row < predictions.unsimulated.size() && !predictions.unsimulated[row].empty())
        text += (text.empty() ? "" : "; ") + std::string("the allocator simulation cannot follow this job (") +
                predictions.unsimulated[row] + ")";
    return text;
}

std::string predictionFile(const data::Table &table, const Predictions &predictions)
{
    std::vector<std::string> extrapolated;
    if (predictions.rangesKnown)
        for (std::size_t row = 0; row < predictions.extrapolations.size(); ++row)
            extrapolated.push_back(describeExtrapolation(predictions, row));
    return predictionCsv(table.rowCount(), predictions.usableRows, predictions.dataset, predictions.predicted, {},
                         predictions.upperBounds, extrapolated);
}

Predictions predictTable(const SavedModel &saved, const data::Table &table, data::BadCellPolicy policy,
                         std::optional<double> coverage)
{
    runtime::setComputeThreads(saved.threads);
    const auto roles = data::assignRoles(table, rolesForModel(saved.model->schema(), table));
    Predictions result;
    result.usableRows = data::selectUsableRows(table, roles, policy, result.warnings);
    result.dataset = data::Dataset::fromTable(table, roles, result.usableRows);
    result.predicted = saved.model->predict(result.dataset);
    // A damaged model can compute infinities from finite inputs; such a number must not reach a scheduler.
    for (Eigen::Index row = 0; row < result.predicted.size(); ++row)
        if (!std::isfinite(result.predicted[row]))
            throw io::InputError(table.source(), result.dataset.rowLines()[static_cast<std::size_t>(row)], 0,
                                 "the model predicted a non-finite value for this job; its folder may be damaged");
    const data::FeatureEncoder encoder(saved.model->schema().encoding);
    result.rangesKnown = !saved.model->schema().encoding.ranges.empty();
    result.extrapolations = encoder.extrapolations(result.dataset, encoder.transform(result.dataset));
    if (saved.model->readsSimulatedPeak())
        if (std::optional<models::SimulatedPeaks> peaks = models::simulatedPeaks(result.dataset))
            result.unsimulated = std::move(peaks->unfollowed);
    if (saved.calibration) {
        result.coverage = coverage.value_or(saved.calibration->coverage());
        const calibration::Calibration &stored = *saved.calibration;
        result.upperBounds = stored.upperBounds(
            result.dataset.numericFeatures(), result.dataset.numericFeatureNames(), result.predicted, result.coverage,
            calibration::memberSpreadForScore(stored.score(), *saved.model, result.dataset, result.predicted));
        // A stored calibration is read from a file: whatever got past its checks, an
        // infinite bound must not reach a scheduler either.
        for (Eigen::Index row = 0; row < result.upperBounds.size(); ++row)
            if (!std::isfinite(result.upperBounds[row]))
                throw io::InputError(table.source(), result.dataset.rowLines()[static_cast<std::size_t>(row)], 0,
                                     "the upper bound of this job is not finite; the model folder's calibration may "
                                     "be damaged");
    } else if (coverage) {
        throw io::InputError("the model was trained without " + io::parameter("coverage") +
                             ", so it has no calibration to serve " + io::parameter("coverage") +
                             " from; train it again with " + io::parameter("coverage"));
    }
    return result;
}

} // namespace gpumem::prediction
