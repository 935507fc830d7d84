// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// `gpumem train DATA.csv --target COL … --out MODEL_DIR`: trains the BiGRU-optimised
// Transformer, shows progress, optionally scores a seeded hold-out (--test-fraction),
// and saves the model folder. Returns the process exit code.
int runTrain(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
