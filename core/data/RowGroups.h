// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::data {

// Returns one group label per dataset row, read from the table's column named
// column: usableRows[i] is the table row of dataset row i (as Dataset::fromTable
// takes it). Equal cells give equal labels, so grouped folds keep, e.g., every job
// of one architecture together. Text columns group by their value, numeric ones by
// their number. Throws io::InputError naming the file when the column does not
// exist or holds layer sequences, and naming the line of the first row whose cell
// is missing. Thread-safe: a pure function of its arguments.
std::vector<std::int64_t> rowGroups(const Table &table, const std::string &column,
                                    const std::vector<std::size_t> &usableRows);

} // namespace gpumem::data
