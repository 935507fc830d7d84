// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "workflows/DataWorkflow.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace gpumem::cli {

// The data-selection options every data-reading subcommand shares, so inspect,
// train and compare read a file identically.
struct DataOptions
{
    std::string target;                            // --target
    std::vector<std::string> features;             // --features, repeatable, comma-separated
    std::vector<std::string> ignored;              // --ignore, repeatable, comma-separated
    std::string sequenceColumn;                    // --sequence-column
    std::string onBadCell = "fail";                // --on-bad-cell fail|drop
    std::string delimiter = "auto";                // --delimiter auto|comma|semicolon|tab
    bool decimalComma = false;                     // --decimal-comma
    std::optional<std::uint64_t> categoricalLimit; // --categorical-limit N (positive)
};

// Declares --target, --features, --ignore, --sequence-column, --on-bad-cell,
// --delimiter, --decimal-comma and --categorical-limit on app, bound to options.
void addDataOptions(CLI::App &app, DataOptions &options);

// Throws InputError when --target was not given: the commands that learn from a
// table cannot guess which column is the memory.
void requireTarget(const DataOptions &options);

// Parses --delimiter: auto (0), comma, semicolon or tab. Throws io::InputError otherwise.
char parseDelimiter(const std::string &text);

// The data workflow's request for the file at path as the options describe it:
// the flags mapped onto their parameters, empty list items left out.
workflows::DataRequest dataRequest(const std::string &path, const DataOptions &options);

} // namespace gpumem::cli
