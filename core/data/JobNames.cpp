// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/JobNames.h"

#include <algorithm>

namespace gpumem::data {

std::vector<std::string> jobNames(const Table &table, const std::vector<std::int64_t> &lines)
{
    const auto identifier = std::find_if(table.columns().begin(), table.columns().end(),
                                         [](const Column &column) { return column.type == ColumnType::Identifier; });
    if (identifier == table.columns().end())
        return {};
    std::vector<std::string> names;
    names.reserve(lines.size());
    const std::vector<std::int64_t> &rowLines = table.rowLines(); // ascending: rows in file order
    for (const std::int64_t line : lines) {
        const auto found = std::lower_bound(rowLines.begin(), rowLines.end(), line);
        const auto row = static_cast<std::size_t>(found - rowLines.begin());
        const bool present =
            found != rowLines.end() && *found == line && row < identifier->codes.size() && identifier->codes[row] >= 0;
        names.push_back(present ? identifier->categories[static_cast<std::size_t>(identifier->codes[row])]
                                : std::string());
    }
    return names;
}

} // namespace gpumem::data
