// SPDX-License-Identifier: GPL-3.0-or-later
#include "prediction/JobPrediction.h"

#include "data/CellText.h"
#include "data/LayerSequenceParser.h"
#include "io/InputError.h"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace gpumem::prediction {

namespace {

// Errors name the job as a file of one row would be named.
const char *const jobSource = "job";

std::string columnLabel(const std::string &name)
{
    return "column " + io::quoteForMessage(name, 60);
}

const std::variant<double, std::string> &valueOf(const JobValues &values, const std::string &column)
{
    const auto found = values.find(column);
    if (found == values.end())
        throw io::InputError(jobSource, 0, 0, "no value for " + columnLabel(column) + ", which the model reads");
    return found->second;
}

// The value's text; a missing-value token ("", "NA", …) is missing here as in a file.
const std::string &textOf(const JobValues &values, const std::string &column)
{
    const auto *text = std::get_if<std::string>(&valueOf(values, column));
    if (!text)
        throw io::InputError(jobSource, 0, 0, columnLabel(column) + " takes text, not a number");
    double number = 0.0;
    std::string scratch;
    if (data::classifyCell(*text, number, false, scratch) == data::CellKind::Missing)
        throw io::InputError(jobSource, 0, 0, "missing value in " + columnLabel(column));
    return *text;
}

data::Column emptyColumn(const std::string &name, data::ColumnType type, std::size_t index)
{
    data::Column column;
    column.name = name;
    column.type = type;
    column.index = index;
    return column;
}

data::Column numericColumn(const JobValues &values, const std::string &name, std::size_t index)
{
    const double *number = std::get_if<double>(&valueOf(values, name));
    if (!number)
        throw io::InputError(jobSource, 0, 0, columnLabel(name) + " takes a number, not text");
    if (!std::isfinite(*number))
        throw io::InputError(jobSource, 0, 0, columnLabel(name) + " takes a finite number");
    data::Column column = emptyColumn(name, data::ColumnType::Numeric, index);
    column.numbers = {*number};
    return column;
}

data::Column categoricalColumn(const JobValues &values, const std::string &name, std::size_t index)
{
    data::Column column = emptyColumn(name, data::ColumnType::Categorical, index);
    column.categories = {textOf(values, name)};
    column.codes = {0};
    return column;
}

data::Column sequenceColumn(const JobValues &values, const std::string &name, std::size_t index)
{
    data::Column column = emptyColumn(name, data::ColumnType::Sequence, index);
    std::vector<data::LayerTuple> layers;
    try {
        data::parseLayerSequence(textOf(values, name), layers);
        column.sequences.appendRow(layers);
    } catch (const data::LayerSequenceError &error) {
        throw io::InputError(jobSource, 0, 0,
                             "malformed layer sequence in " + columnLabel(name) + " at character " +
                                 std::to_string(error.offset() + 1) + ": " + error.what());
    } catch (const std::invalid_argument &error) {
        throw io::InputError(jobSource, 0, 0,
                             "inconsistent layer sequence in " + columnLabel(name) + ": " + error.what());
    }
    return column;
}

} // namespace

Predictions predictJob(const SavedModel &saved, const JobValues &values, std::optional<double> coverage)
{
    // A table of exactly the columns the model reads, typed as its training file had them.
    const data::FeatureEncoding &encoding = saved.model->schema().encoding;
    std::vector<data::Column> columns;
    for (const auto &name : encoding.numericColumns)
        columns.push_back(numericColumn(values, name, columns.size()));
    for (const auto &categorical : encoding.categoricals)
        columns.push_back(categoricalColumn(values, categorical.column, columns.size()));
    if (!encoding.sequenceColumn.empty())
        columns.push_back(sequenceColumn(values, encoding.sequenceColumn, columns.size()));
    const data::Table table(jobSource, ',', std::move(columns), {0});
    return predictTable(saved, table, data::BadCellPolicy::Fail, coverage);
}

} // namespace gpumem::prediction
