#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// Runs `gpumem` with arguments (argv without the program name), writing
// results to out and diagnostics to err. Returns the exit code: 0 on success,
// 1 on bad input or failure, with exactly one "gpumem: file:line:column: reason"
// line on err.
int runCommandLine(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
