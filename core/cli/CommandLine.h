// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// Runs `gpumem` with arguments (argv without the program name), writing
// results to out and diagnostics to err. Returns the exit code: 0 on success,
// 1 on bad input or failure, with exactly one "gpumem COMMAND: file:line:column: reason"
// line on err (the global --verbose, before or after COMMAND, adds the error's
// full detail after it). A result that out could not take, found when out is
// flushed at the end, is a failure too: "gpumem COMMAND: cannot write to standard output".
int runCommandLine(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
