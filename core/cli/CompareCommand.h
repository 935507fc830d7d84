// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// `gpumem compare DATA.csv --target COL [--models …] [--folds K | --test-fraction F]
// [--report FILE]… [--json]`: fits every model on identical splits, prints the
// comparison table and writes reports in the formats their extensions name.
// Returns the process exit code.
int runCompare(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
