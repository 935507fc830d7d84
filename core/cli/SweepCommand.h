// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// `gpumem sweep DATA.csv --target COL --param NAME=V1,V2 … --out RUNS.jsonl`: trains
// one run per combination of the values (or --random N of them), scores each on a
// seeded hold-out, and writes one JSON Lines record per run as each finishes;
// --shard I/N runs one slice and `gpumem sweep --merge A B … --out ALL` joins the
// slices. Returns the process exit code.
int runSweep(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
