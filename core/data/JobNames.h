// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::data {

// Returns how people call the jobs on the given file lines: the value of the
// table's first identifier column (e.g. a run id) in the row on each line, empty
// where the row has none. Empty when the table has no identifier column, so that
// callers fall back to line numbers.
std::vector<std::string> jobNames(const Table &table, const std::vector<std::int64_t> &lines);

} // namespace gpumem::data
