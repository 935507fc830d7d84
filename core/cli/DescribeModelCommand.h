// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// `gpumem describe-model [DATA.csv] [model options] [--json]`: the network the
// hyperparameters build, block by block, with tensor shapes and parameter counts
// (sizes from DATA.csv when given), plus every hyperparameter's description.
// Returns the process exit code.
int runDescribeModel(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
