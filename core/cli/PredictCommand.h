// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// `gpumem predict MODEL_DIR DATA.csv [--out PRED.csv]`: one output row per input
// row, in order, with `prediction` (and `actual`, `error` when the file has the
// target). Refuses data that lacks a column of the model's schema, naming it.
// Returns the process exit code.
int runPredict(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
