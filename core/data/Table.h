// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/SequenceColumn.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::data {

// What a column holds, inferred from every cell of the file.
enum class ColumnType
{
    Numeric,     // every present cell is a number
    Categorical, // few distinct strings, some repeated
    Identifier,  // strings that are all different, or too many to be categories
    Sequence,    // a layer sequence per row, "[('linear', 1173, 2753031), …]"
    Empty,       // no present cell at all
};

// Returns the lower-case name used in reports and on the command line ("numeric", …).
std::string_view columnTypeName(ColumnType type);

// The first cell of a column that cannot be used as it is, with a one-line
// reason, kept so that errors and warnings can point at it.
struct BadCell
{
    std::int64_t line = 0; // 1-based line in the file
    std::string reason;    // e.g. "missing value in column 'x'"
};

// One typed column. Which vectors are filled depends on type; every filled
// vector has one entry per table row.
struct Column
{
    std::string name;
    ColumnType type = ColumnType::Empty;
    std::size_t index = 0; // 0-based position in the file

    std::vector<double> numbers;         // Numeric: NaN where missing or not finite
    std::vector<std::string> categories; // Categorical, Identifier: distinct values, first-seen order
    std::vector<std::int32_t> codes;     // Categorical, Identifier: index into categories, -1 where missing
    SequenceColumn sequences;            // Sequence: absent where missing or malformed

    std::int64_t missingCount = 0; // empty, NA, NaN, null, None cells
    std::int64_t invalidCount = 0; // non-finite numbers, malformed sequences
    std::optional<BadCell> firstBadCell;
    // The first cell that is not a number, which explains why a text column cannot
    // be a target; in a numeric column, the first of nonNumericCount stray cells.
    std::optional<BadCell> firstNonNumericCell;
    std::string firstNonNumericValue; // that cell's text, cut to 40 bytes for messages
    // Numeric columns: present cells that are not numbers (each also counted invalid).
    std::int64_t nonNumericCount = 0;

    // Returns whether the cell of row is missing or invalid.
    bool isBad(std::size_t row) const;
};

// A CSV file loaded into typed columns, with the file line on which each row starts.
class Table
{
  public:
    Table(std::string source, char delimiter, std::vector<Column> columns, std::vector<std::int64_t> rowLines,
          bool decimalComma = false);

    const std::string &source() const { return mSource; }
    char delimiter() const { return mDelimiter; }
    // Whether numbers were read with a decimal comma ("1,5").
    bool decimalComma() const { return mDecimalComma; }
    std::size_t rowCount() const { return mRowLines.size(); }
    std::size_t columnCount() const { return mColumns.size(); }
    const std::vector<Column> &columns() const { return mColumns; }
    const Column &column(std::size_t index) const { return mColumns.at(index); }
    // The 1-based file line on which row starts.
    std::int64_t rowLine(std::size_t row) const { return mRowLines[row]; }
    const std::vector<std::int64_t> &rowLines() const { return mRowLines; }

    // Returns the index of the column called name, if there is one.
    std::optional<std::size_t> columnIndex(std::string_view name) const;
    // Returns the column names joined by ", ", for error messages.
    std::string columnNameList() const;
    // Returns one line per numeric column that holds stray text cells, e.g.
    // "column 'batch' is numeric except for 1 cell: line 17 '1,5'".
    std::vector<std::string> nonNumericCellNotes() const;

  private:
    std::string mSource;
    char mDelimiter;
    bool mDecimalComma;
    std::vector<Column> mColumns;
    std::vector<std::int64_t> mRowLines;
};

} // namespace gpumem::data
