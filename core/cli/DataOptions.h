// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/LikelyOutcomes.h"
#include "data/Table.h"

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

// A file loaded and checked the way the options ask.
struct LoadedData
{
    std::optional<data::Table> table;
    std::vector<data::ColumnRole> roles;
    std::vector<std::size_t> usableRows; // rows the bad-cell policy keeps
    std::vector<std::string> warnings;
    // Features that look measured with the target (not those --features names).
    std::vector<data::LikelyOutcome> likelyOutcomes;
};

// Parses --delimiter: auto (0), comma, semicolon or tab. Throws io::InputError otherwise.
char parseDelimiter(const std::string &text);

// Loads path and applies the data options; throws io::InputError on bad input,
// including data that would encode into more than data::maxEncodedFeatures features.
// Warnings name stray text cells in numeric columns and capped layer types.
LoadedData loadData(const std::string &path, const DataOptions &options);

} // namespace gpumem::cli
