// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/RoleNotes.h"

#include "io/InputError.h"

#include <algorithm>

namespace gpumem::data {

std::vector<std::string> ignoredConstantColumns(const Table &table, const std::vector<ColumnRole> &roles,
                                                const std::vector<std::string> &alsoIgnored)
{
    std::vector<std::string> names;
    for (const auto &column : table.columns())
        if (column.index < roles.size() && roles[column.index] == ColumnRole::Ignored && holdsOneValue(column) &&
            std::find(alsoIgnored.begin(), alsoIgnored.end(), column.name) == alsoIgnored.end())
            names.push_back(column.name);
    return names;
}

std::string constantColumnsNote(const std::vector<std::string> &columns)
{
    if (columns.empty())
        return {};
    std::string names;
    for (const auto &name : columns)
        names += (names.empty() ? "" : ", ") + io::quoteForMessage(name, 40);
    return "ignored " + std::to_string(columns.size()) +
           (columns.size() == 1 ? " column that holds" : " columns that hold") +
           " one value in every row (nothing to learn from): " + names;
}

} // namespace gpumem::data
