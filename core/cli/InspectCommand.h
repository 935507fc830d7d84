// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// `gpumem inspect DATA.csv [--json] [data options]`: rows, columns with their
// inferred type and role, missing and invalid counts, statistics and target
// candidates. Loads the file exactly as train and compare would, so a file that
// inspects cleanly trains cleanly. Returns the process exit code.
int runInspect(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
