// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/InputEditor.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace gpumem::evaluation {

namespace {

// The cells of column at tableRows, in that order, with the column's name, type and categories.
data::Column selectCells(const data::Column &column, const std::vector<std::size_t> &tableRows)
{
    data::Column selected;
    selected.name = column.name;
    selected.type = column.type;
    selected.index = column.index;
    selected.categories = column.categories;
    if (!column.numbers.empty())
        for (std::size_t row : tableRows)
            selected.numbers.push_back(column.numbers[row]);
    if (!column.codes.empty())
        for (std::size_t row : tableRows)
            selected.codes.push_back(column.codes[row]);
    if (column.type == data::ColumnType::Sequence)
        selected.sequences = column.sequences.selectRows(tableRows);
    return selected;
}

} // namespace

InputEditor::InputEditor(const data::Table &table, const std::vector<data::ColumnRole> &roles,
                         const std::vector<std::size_t> &usableRows)
    : mTable(table)
    , mRoles(roles)
    , mUsableRows(usableRows)
{
    for (std::size_t column = 0; column < table.columnCount() && column < roles.size(); ++column)
        if (roles[column] == data::ColumnRole::Feature || roles[column] == data::ColumnRole::Sequence)
            mInputs.push_back({table.column(column).name, column, table.column(column).type});
}

std::vector<std::size_t> InputEditor::numericInputs() const
{
    std::vector<std::size_t> numeric;
    for (std::size_t input = 0; input < mInputs.size(); ++input)
        if (mInputs[input].type == data::ColumnType::Numeric)
            numeric.push_back(input);
    return numeric;
}

std::vector<std::size_t> InputEditor::tableRows(const std::vector<Eigen::Index> &rows) const
{
    std::vector<std::size_t> selected;
    selected.reserve(rows.size());
    for (Eigen::Index row : rows)
        selected.push_back(mUsableRows.at(static_cast<std::size_t>(row)));
    return selected;
}

std::vector<data::Column> InputEditor::selectedColumns(const std::vector<std::size_t> &tableRows) const
{
    std::vector<data::Column> columns;
    columns.reserve(mTable.columnCount());
    for (std::size_t index = 0; index < mTable.columnCount(); ++index) {
        const data::Column &column = mTable.column(index);
        // An ignored column counts only when it holds one value (Dataset::constantColumns):
        // a subset of a varied column could hold one value by chance and would then count.
        const bool ignored = index >= mRoles.size() || mRoles[index] == data::ColumnRole::Ignored;
        if (ignored && !data::holdsOneValue(column)) {
            data::Column empty;
            empty.name = column.name;
            empty.index = column.index;
            columns.push_back(std::move(empty));
            continue;
        }
        columns.push_back(selectCells(column, tableRows));
    }
    return columns;
}

data::Dataset InputEditor::build(std::vector<data::Column> columns, const std::vector<std::size_t> &tableRows) const
{
    std::vector<std::int64_t> lines;
    lines.reserve(tableRows.size());
    for (std::size_t row : tableRows)
        lines.push_back(mTable.rowLine(row));
    const data::Table table(mTable.source(), mTable.delimiter(), std::move(columns), std::move(lines),
                            mTable.decimalComma());
    std::vector<std::size_t> every(tableRows.size());
    std::iota(every.begin(), every.end(), std::size_t{0});
    return data::Dataset::fromTable(table, mRoles, every);
}

data::Dataset InputEditor::rows(const std::vector<Eigen::Index> &rows) const
{
    const std::vector<std::size_t> selected = tableRows(rows);
    return build(selectedColumns(selected), selected);
}

data::Dataset InputEditor::withInputFrom(const std::vector<Eigen::Index> &rows, std::size_t input,
                                         const std::vector<Eigen::Index> &donors) const
{
    if (donors.size() != rows.size())
        throw std::invalid_argument("one donor row per row is needed");
    const std::vector<std::size_t> selected = tableRows(rows);
    std::vector<data::Column> columns = selectedColumns(selected);
    const std::size_t column = mInputs.at(input).column;
    columns[column] = selectCells(mTable.column(column), tableRows(donors));
    return build(std::move(columns), selected);
}

data::Dataset InputEditor::withNumbers(const std::vector<Eigen::Index> &rows, std::size_t input,
                                       const std::vector<double> &values) const
{
    if (mInputs.at(input).type != data::ColumnType::Numeric)
        throw std::invalid_argument("input " + mInputs[input].name + " is not numeric");
    if (values.size() != rows.size())
        throw std::invalid_argument("one value per row is needed");
    const std::vector<std::size_t> selected = tableRows(rows);
    std::vector<data::Column> columns = selectedColumns(selected);
    columns[mInputs[input].column].numbers = values;
    return build(std::move(columns), selected);
}

std::pair<double, double> InputEditor::range(std::size_t input) const
{
    if (mInputs.at(input).type != data::ColumnType::Numeric)
        throw std::invalid_argument("input " + mInputs[input].name + " is not numeric");
    const std::vector<double> &numbers = mTable.column(mInputs[input].column).numbers;
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    for (std::size_t row : mUsableRows) {
        low = std::min(low, numbers[row]);
        high = std::max(high, numbers[row]);
    }
    return {low, high};
}

} // namespace gpumem::evaluation
