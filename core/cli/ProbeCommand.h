// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// `gpumem probe --family F --count N --out FILE.csv [--device D] [--seed S] [--resume]`:
// generates random training configurations, runs a few training steps of each
// with LibTorch and writes their peak memory as a dataset. Returns the exit code.
int runProbe(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
