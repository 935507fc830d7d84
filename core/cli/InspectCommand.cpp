// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/InspectCommand.h"

#include "cli/CommandParser.h"
#include "cli/DataOptions.h"
#include "cli/TextTable.h"
#include "data/ColumnSummary.h"
#include "io/InputError.h"
#include "io/JsonWriter.h"

#include <cstdio>

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
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
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

void printText(const LoadedData &loaded, std::ostream &out)
{
    const data::Table &table = *loaded.table;
    out << table.source() << ": " << table.rowCount() << " rows, " << table.columnCount() << " columns, "
        << delimiterName(table.delimiter()) << "-separated" << (table.decimalComma() ? ", decimal comma" : "")
        << "\n\n";
    TextTable columns({"#", "column", "type", "role", "missing", "invalid", "values"},
                      {TextTable::Alignment::Right, TextTable::Alignment::Left, TextTable::Alignment::Left,
                       TextTable::Alignment::Left, TextTable::Alignment::Right, TextTable::Alignment::Right,
                       TextTable::Alignment::Left});
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

void printJson(const LoadedData &loaded, std::ostream &out)
{
    const data::Table &table = *loaded.table;
    io::JsonWriter json(out);
    json.beginObject();
    json.key("file").value(table.source());
    json.key("rows").value(table.rowCount());
    json.key("usable_rows").value(loaded.usableRows.size());
    json.key("delimiter").value(std::string(1, table.delimiter()));
    json.key("decimal_comma").value(table.decimalComma());
    json.key("columns").beginArray();
    for (const auto &column : table.columns()) {
        const data::ColumnSummary summary = data::summarizeColumn(column, table.rowCount());
        json.beginObject();
        json.key("index").value(column.index);
        json.key("name").value(column.name);
        json.key("type").value(data::columnTypeName(column.type));
        json.key("role").value(data::columnRoleName(loaded.roles[column.index]));
        json.key("missing").value(summary.missing);
        json.key("invalid").value(summary.invalid);
        switch (column.type) {
        case data::ColumnType::Numeric:
            json.key("min").value(summary.minimum);
            json.key("max").value(summary.maximum);
            json.key("mean").value(summary.mean);
            json.key("std").value(summary.standardDeviation);
            break;
        case data::ColumnType::Categorical:
            json.key("distinct").value(summary.distinct);
            json.key("top_values").value(summary.topValues);
            break;
        case data::ColumnType::Identifier: json.key("distinct").value(summary.distinct); break;
        case data::ColumnType::Sequence:
            json.key("min_layers").value(summary.minimum);
            json.key("max_layers").value(summary.maximum);
            json.key("mean_layers").value(summary.mean);
            json.key("fields_per_layer").value(summary.fieldsPerLayer);
            json.key("layer_types").value(summary.layerTypes);
            break;
        case data::ColumnType::Empty: break;
        }
        if (column.nonNumericCount > 0 && column.firstNonNumericCell) {
            json.key("non_numeric_cells").beginObject();
            json.key("count").value(column.nonNumericCount);
            json.key("first_line").value(column.firstNonNumericCell->line);
            json.key("first_value").value(column.firstNonNumericValue);
            json.endObject();
        }
        if (column.firstBadCell) {
            json.key("first_bad_cell").beginObject();
            json.key("line").value(column.firstBadCell->line);
            json.key("reason").value(column.firstBadCell->reason);
            json.endObject();
        }
        json.endObject();
    }
    json.endArray();
    json.key("target_candidates").value(data::targetCandidates(table));
    json.key("warnings").value(loaded.warnings);
    json.endObject();
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

    const LoadedData loaded = loadData(path, dataOptions);
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
