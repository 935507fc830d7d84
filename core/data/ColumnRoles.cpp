// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/ColumnRoles.h"

#include "io/InputError.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace gpumem::data {

namespace {

// The column called name; parameter is the marked request field that named it (io::parameter).
const Column &requireColumn(const Table &table, const std::string &name, const std::string &parameter)
{
    const auto index = table.columnIndex(name);
    if (!index)
        throw io::InputError(table.source(), 0, 0,
                             parameter + " names no column " + io::quoteForMessage(name, 60) +
                                 "; the columns are: " + table.columnNameList());
    return table.column(*index);
}

// Whole words only: "Number of embeddings" must not match "mb".
bool speaksOfMemory(const std::string &name)
{
    static const std::set<std::string> words = {"memory", "mem",   "mib",  "gib",  "mb",
                                                "gb",     "bytes", "peak", "vram", "target"};
    std::string word;
    for (std::size_t i = 0; i <= name.size(); ++i) {
        const auto c = i < name.size() ? static_cast<unsigned char>(name[i]) : ' ';
        if (std::isalnum(c)) {
            word += static_cast<char>(std::tolower(c));
            continue;
        }
        if (words.count(word) != 0)
            return true;
        word.clear();
    }
    return false;
}

// Ignores the complete constant features of roles, unless no input but them is left
// besides target: a table of constants is still learnt from (and refused later if
// it cannot be) rather than left with nothing.
void ignoreConstantColumns(const Table &table, const std::string &target, std::vector<ColumnRole> &roles)
{
    std::vector<ColumnRole> without = roles;
    bool inputLeft = false;
    for (const auto &column : table.columns()) {
        ColumnRole &role = without[column.index];
        if (role == ColumnRole::Feature && holdsOneValue(column))
            role = ColumnRole::Ignored;
        inputLeft =
            inputLeft || ((role == ColumnRole::Feature || role == ColumnRole::Sequence) && column.name != target);
    }
    if (inputLeft)
        roles = std::move(without);
}

} // namespace

std::vector<std::size_t> columnsTaking(const Table &table, const std::vector<std::size_t> &columns, ColumnRole role)
{
    std::vector<std::size_t> taking;
    for (const std::size_t column : columns) {
        const std::vector<ColumnRole> allowed = allowedRoles(table.column(column));
        if (std::find(allowed.begin(), allowed.end(), role) != allowed.end())
            taking.push_back(column);
    }
    return taking;
}

bool isConstant(const Column &column)
{
    if (column.type == ColumnType::Categorical || column.type == ColumnType::Identifier)
        return column.categories.size() <= 1;
    double first = std::nan("");
    for (double value : column.numbers) {
        if (std::isnan(value))
            continue;
        if (std::isnan(first))
            first = value;
        else if (value != first)
            return false;
    }
    return true;
}

bool holdsOneValue(const Column &column)
{
    if (column.missingCount != 0 || column.invalidCount != 0)
        return false;
    if (column.type == ColumnType::Categorical)
        return column.categories.size() == 1;
    return column.type == ColumnType::Numeric && !column.numbers.empty() && isConstant(column);
}

std::string_view columnRoleName(ColumnRole role)
{
    switch (role) {
    case ColumnRole::Feature: return "feature";
    case ColumnRole::Target: return "target";
    case ColumnRole::Sequence: return "sequence";
    case ColumnRole::Ignored: return "ignored";
    }
    return "unknown";
}

std::vector<ColumnRole> defaultRoles(const Table &table)
{
    std::vector<ColumnRole> roles;
    bool sequenceTaken = false;
    for (const auto &column : table.columns()) {
        switch (column.type) {
        case ColumnType::Numeric:
        case ColumnType::Categorical: roles.push_back(ColumnRole::Feature); break;
        case ColumnType::Sequence:
            roles.push_back(sequenceTaken ? ColumnRole::Ignored : ColumnRole::Sequence);
            sequenceTaken = true;
            break;
        case ColumnType::Identifier:
        case ColumnType::Empty: roles.push_back(ColumnRole::Ignored); break;
        }
    }
    return roles;
}

std::vector<ColumnRole> allowedRoles(const Column &column)
{
    switch (column.type) {
    case ColumnType::Numeric: return {ColumnRole::Feature, ColumnRole::Target, ColumnRole::Ignored};
    case ColumnType::Categorical:
    case ColumnType::Identifier: return {ColumnRole::Feature, ColumnRole::Ignored};
    case ColumnType::Sequence: return {ColumnRole::Sequence, ColumnRole::Ignored};
    case ColumnType::Empty: break;
    }
    return {ColumnRole::Ignored};
}

std::vector<ColumnRole> assignRoles(const Table &table, const RoleRequest &request)
{
    std::vector<ColumnRole> roles = defaultRoles(table);
    if (request.ignoreConstantColumns)
        ignoreConstantColumns(table, request.target, roles);

    if (!request.sequenceColumn.empty()) {
        const Column &column = requireColumn(table, request.sequenceColumn, io::parameter("sequence_column"));
        if (column.type != ColumnType::Sequence) {
            throw io::InputError(table.source(), 0, static_cast<std::int64_t>(column.index + 1),
                                 "column " + io::quoteForMessage(column.name, 60) + " is " +
                                     std::string(columnTypeName(column.type)) +
                                     ", not a layer sequence like [('linear', 1173, 2753031), …]");
        }
        for (std::size_t i = 0; i < roles.size(); ++i)
            if (roles[i] == ColumnRole::Sequence)
                roles[i] = ColumnRole::Ignored;
        roles[column.index] = ColumnRole::Sequence;
    }

    if (!request.features.empty()) {
        for (auto &role : roles)
            if (role == ColumnRole::Feature)
                role = ColumnRole::Ignored;
        for (const auto &name : request.features) {
            const Column &column = requireColumn(table, name, io::parameter("features"));
            if (column.type == ColumnType::Empty)
                throw io::InputError(table.source(), 0, static_cast<std::int64_t>(column.index + 1),
                                     "feature column " + io::quoteForMessage(name, 60) + " has no values");
            if (column.type == ColumnType::Sequence)
                throw io::InputError(table.source(), 0, static_cast<std::int64_t>(column.index + 1),
                                     "column " + io::quoteForMessage(name, 60) +
                                         " holds layer sequences: name it with " + io::parameter("sequence_column") +
                                         " instead");
            // An identifier named explicitly is the user's choice: it is one-hot encoded like a category.
            roles[column.index] = ColumnRole::Feature;
        }
    }

    for (const auto &name : request.ignored)
        roles[requireColumn(table, name, io::parameter("ignored")).index] = ColumnRole::Ignored;

    if (!request.target.empty()) {
        const Column &column = requireColumn(table, request.target, io::parameter("target"));
        if (column.type != ColumnType::Numeric) {
            const BadCell cell = column.firstNonNumericCell.value_or(BadCell{0, "it has no values"});
            throw io::InputError(table.source(), cell.line, static_cast<std::int64_t>(column.index + 1),
                                 "target column " + io::quoteForMessage(column.name, 60) +
                                     " must be numeric (peak memory), but " + cell.reason);
        }
        roles[column.index] = ColumnRole::Target;
    }

    const bool hasInput = std::any_of(roles.begin(), roles.end(), [](ColumnRole role) {
        return role == ColumnRole::Feature || role == ColumnRole::Sequence;
    });
    if (!hasInput)
        throw io::InputError(table.source(), 0, 0, "no feature or sequence column is left to learn from");
    return roles;
}

std::vector<ColumnRole> suggestedRoles(const Table &table)
{
    RoleRequest request;
    const auto candidates = targetCandidates(table);
    if (!candidates.empty())
        request.target = candidates.front();
    request.ignoreConstantColumns = true;
    return assignRoles(table, request);
}

std::vector<std::string> targetCandidates(const Table &table)
{
    std::vector<std::string> named;
    std::vector<std::string> others;
    for (const auto &column : table.columns()) {
        if (column.type != ColumnType::Numeric || isConstant(column))
            continue;
        (speaksOfMemory(column.name) ? named : others).push_back(column.name);
    }
    named.insert(named.end(), others.begin(), others.end());
    return named;
}

} // namespace gpumem::data
