// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/Table.h"

#include "io/InputError.h"

#include <cmath>

namespace gpumem::data {

std::string_view columnTypeName(ColumnType type)
{
    switch (type) {
    case ColumnType::Numeric: return "numeric";
    case ColumnType::Categorical: return "categorical";
    case ColumnType::Identifier: return "identifier";
    case ColumnType::Sequence: return "sequence";
    case ColumnType::Empty: return "empty";
    }
    return "unknown";
}

bool Column::isBad(std::size_t row) const
{
    switch (type) {
    case ColumnType::Numeric: return std::isnan(numbers[row]);
    case ColumnType::Categorical:
    case ColumnType::Identifier: return codes[row] < 0;
    case ColumnType::Sequence: return !sequences.isPresent(row);
    case ColumnType::Empty: return true;
    }
    return true;
}

Table::Table(std::string source, char delimiter, std::vector<Column> columns, std::vector<std::int64_t> rowLines,
             bool decimalComma)
    : mSource(std::move(source))
    , mDelimiter(delimiter)
    , mDecimalComma(decimalComma)
    , mColumns(std::move(columns))
    , mRowLines(std::move(rowLines))
{
}

std::optional<std::size_t> Table::columnIndex(std::string_view name) const
{
    for (std::size_t i = 0; i < mColumns.size(); ++i)
        if (mColumns[i].name == name)
            return i;
    return std::nullopt;
}

std::string Table::columnNameList() const
{
    std::string list;
    for (const auto &column : mColumns) {
        if (!list.empty())
            list += ", ";
        list += column.name;
    }
    return list;
}

std::vector<std::string> Table::nonNumericCellNotes() const
{
    std::vector<std::string> notes;
    for (const auto &column : mColumns) {
        if (column.type != ColumnType::Numeric || column.nonNumericCount == 0 || !column.firstNonNumericCell)
            continue;
        const std::int64_t count = column.nonNumericCount;
        notes.push_back("column " + io::quoteForMessage(column.name, 60) + " is numeric except for " +
                        std::to_string(count) + (count == 1 ? " cell: line " : " cells, first: line ") +
                        std::to_string(column.firstNonNumericCell->line) + ' ' +
                        io::quoteForMessage(column.firstNonNumericValue));
    }
    return notes;
}

} // namespace gpumem::data
