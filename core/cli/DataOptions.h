// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli/ArgumentParser.h"
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/Table.h"

#include <optional>
#include <string>
#include <vector>

namespace gpumem::cli {

// The data-selection options every data-reading subcommand shares (--target,
// --features, --ignore, --sequence-column, --on-bad-cell, --delimiter,
// --decimal-comma, --categorical-limit), so inspect, train and compare read a file identically.
void addDataOptions(ArgumentParser &parser);

// A file loaded and checked the way the options ask.
struct LoadedData
{
    std::optional<data::Table> table;
    std::vector<data::ColumnRole> roles;
    std::vector<std::size_t> usableRows; // rows the bad-cell policy keeps
    std::vector<std::string> warnings;
};

// Parses --delimiter: auto (0), comma, semicolon or tab. Throws io::InputError otherwise.
char parseDelimiter(const std::string &text);

// Loads path and applies the data options; throws io::InputError on bad input,
// including data that would encode into more than data::maxEncodedFeatures features.
// Warnings name stray text cells in numeric columns and capped layer types.
LoadedData loadData(const std::string &path, const ParsedArguments &arguments);

} // namespace gpumem::cli
