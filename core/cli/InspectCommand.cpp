// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/InspectCommand.h"

#include "cli/CommandParser.h"
#include "cli/DataOptions.h"
#include "cli/TextTable.h"
#include "data/ColumnSummary.h"
#include "io/InputError.h"
#include "io/JsonDocument.h"
#include "io/NumberText.h"

namespace gpumem::cli {

namespace {

std::string delimiterName(char delimiter)
{
    switch (delimiter) {
    case ',': return "comma";
    case ';': return "semicolon";
    case '\t': return "tab";
    default: return std::string(1, delimiter);
    }
}

std::string formatNumber(double value)
{
    return io::formattedNumber("%.6g", value);
}

// A short human description of what the column holds.
std::string describe(const data::Column &column, const data::ColumnSummary &summary)
{
    switch (column.type) {
    case data::ColumnType::Numeric:
        return formatNumber(summary.minimum) + " .. " + formatNumber(summary.maximum) + ", mean " +
               formatNumber(summary.mean);
    case data::ColumnType::Categorical: {
        std::string text = std::to_string(summary.distinct) + " values:";
        for (const auto &value : summary.topValues)
            text += ' ' + value;
        return text + (summary.distinct > summary.topValues.size() ? " ..." : "");
    }
    case data::ColumnType::Identifier: return std::to_string(summary.distinct) + " distinct strings";
    case data::ColumnType::Sequence:
        return formatNumber(summary.minimum) + " .. " + formatNumber(summary.maximum) + " layers, " +
               std::to_string(summary.layerTypes.size()) + " layer types";
    case data::ColumnType::Empty: return "no values";
    }
    return {};
}

void printText(const workflows::DataSelection &loaded, std::ostream &out)
{
    const data::Table &table = *loaded.table;
    out << table.source() << ": " << table.rowCount() << " rows, " << table.columnCount() << " columns, "
        << delimiterName(table.delimiter()) << "-separated" << (table.decimalComma() ? ", decimal comma" : "")
        << "\n\n";
    TextTable columns({TextTable::numeric("#"), "column", "type", "role", TextTable::numeric("missing"),
                       TextTable::numeric("invalid"), "values"});
    for (const auto &column : table.columns()) {
        const data::ColumnSummary summary = data::summarizeColumn(column, table.rowCount());
        columns.addRow({std::to_string(column.index + 1), column.name, std::string(data::columnTypeName(column.type)),
                        std::string(data::columnRoleName(loaded.roles[column.index])), std::to_string(summary.missing),
                        std::to_string(summary.invalid), describe(column, summary)});
    }
    columns.print(out);
    out << "\nTarget candidates:";
    const auto candidates = data::targetCandidates(table);
    for (std::size_t i = 0; i < candidates.size(); ++i)
        out << (i == 0 ? " " : ", ") << candidates[i];
    out << (candidates.empty() ? " none (no varying numeric column)\n" : "\n");
    if (loaded.usableRows.size() < table.rowCount())
        out << "Rows usable: " << loaded.usableRows.size() << " of " << table.rowCount() << '\n';
}

// One item of "columns": what every column has, then what its type adds.
io::Json columnJson(const data::Column &column, const data::ColumnSummary &summary, data::ColumnRole role)
{
    io::Json json{{"index", column.index},
                  {"name", column.name},
                  {"type", data::columnTypeName(column.type)},
                  {"role", data::columnRoleName(role)},
                  {"missing", summary.missing},
                  {"invalid", summary.invalid}};
    switch (column.type) {
    case data::ColumnType::Numeric:
        json["min"] = summary.minimum;
        json["max"] = summary.maximum;
        json["mean"] = summary.mean;
        json["std"] = summary.standardDeviation;
        break;
    case data::ColumnType::Categorical:
        json["distinct"] = summary.distinct;
        json["top_values"] = summary.topValues;
        break;
    case data::ColumnType::Identifier: json["distinct"] = summary.distinct; break;
    case data::ColumnType::Sequence:
        json["min_layers"] = summary.minimum;
        json["max_layers"] = summary.maximum;
        json["mean_layers"] = summary.mean;
        json["fields_per_layer"] = summary.fieldsPerLayer;
        json["layer_types"] = summary.layerTypes;
        break;
    case data::ColumnType::Empty: break;
    }
    if (column.nonNumericCount > 0 && column.firstNonNumericCell)
        json["non_numeric_cells"] = {{"count", column.nonNumericCount},
                                     {"first_line", column.firstNonNumericCell->line},
                                     {"first_value", column.firstNonNumericValue}};
    if (column.firstBadCell)
        json["first_bad_cell"] = {{"line", column.firstBadCell->line}, {"reason", column.firstBadCell->reason}};
    return json;
}

io::Json likelyOutcomesJson(const std::vector<data::LikelyOutcome> &outcomes)
{
    io::Json json = io::Json::array();
    for (const auto &outcome : outcomes)
        json.push_back({{"column", outcome.column}, {"reason", outcome.reason}});
    return json;
}

void printJson(const workflows::DataSelection &loaded, std::ostream &out)
{
    const data::Table &table = *loaded.table;
    io::Json columns = io::Json::array();
    for (const auto &column : table.columns())
        columns.push_back(
            columnJson(column, data::summarizeColumn(column, table.rowCount()), loaded.roles[column.index]));
    io::writeJsonDocument(out, {{"file", table.source()},
                                {"rows", table.rowCount()},
                                {"usable_rows", loaded.usableRows.size()},
                                {"delimiter", std::string(1, table.delimiter())},
                                {"decimal_comma", table.decimalComma()},
                                {"columns", std::move(columns)},
                                {"target_candidates", data::targetCandidates(table)},
                                {"likely_outcomes", likelyOutcomesJson(loaded.likelyOutcomes)},
                                {"warnings", loaded.warnings}});
}

} // namespace

int runInspect(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    CommandParser parser("gpumem inspect", "gpumem inspect DATA.csv [options]",
                         "Shows how a CSV file of jobs is read: each column's inferred type and role, missing\n"
                         "and invalid cells, statistics, and which columns could be the target.");
    CLI::App &app = parser.app();
    std::string path;
    app.add_option("DATA.csv", path, "the measurements, one job per row, with a header row")->required();
    DataOptions dataOptions;
    addDataOptions(app, dataOptions);
    bool json = false;
    app.add_flag("--json", json, "print a JSON document instead of a table");
    if (!parser.parse(arguments, out))
        return 0;

    const workflows::DataSelection loaded = workflows::inspectData(dataRequest(path, dataOptions));
    if (json) {
        printJson(loaded, out);
    } else {
        printText(loaded, out);
        for (const auto &warning : loaded.warnings)
            err << "warning: " << warning << '\n';
    }
    return 0;
}

} // namespace gpumem::cli
