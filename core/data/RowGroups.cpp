// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/RowGroups.h"

#include "io/InputError.h"

#include <map>

namespace gpumem::data {

std::vector<std::int64_t> rowGroups(const Table &table, const std::string &column,
                                    const std::vector<std::size_t> &usableRows)
{
    const auto index = table.columnIndex(column);
    if (!index)
        throw io::InputError(table.source(), 0, 0,
                             "no column " + io::quoteForMessage(column) + " to group the folds by; the columns are " +
                                 table.columnNameList());
    const Column &cells = table.column(*index);
    if (cells.type == ColumnType::Sequence || cells.type == ColumnType::Empty)
        throw io::InputError(table.source(), 0, 0,
                             "column " + io::quoteForMessage(column) +
                                 " cannot group the folds: it holds no values that name a group");

    std::vector<std::int64_t> groups;
    groups.reserve(usableRows.size());
    std::map<double, std::int64_t> labelOfNumber; // numbers are labelled in first-seen order
    for (std::size_t row : usableRows) {
        if (cells.isBad(row))
            throw io::InputError(table.source(), table.rowLine(row), 0,
                                 "column " + io::quoteForMessage(column) + " has no value to group this job by");
        if (cells.type == ColumnType::Numeric) {
            const auto [entry, added] =
                labelOfNumber.emplace(cells.numbers[row], static_cast<std::int64_t>(labelOfNumber.size()));
            groups.push_back(entry->second);
        } else {
            groups.push_back(cells.codes[row]);
        }
    }
    return groups;
}

} // namespace gpumem::data
