// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"

#include <string>
#include <string_view>
#include <vector>

namespace gpumem::data {

// What a column is used for.
enum class ColumnRole
{
    Feature,  // an input of every model (numeric, or one-hot encoded when categorical)
    Target,   // the value to predict (peak memory)
    Sequence, // the layer sequence: tokens for sequence models, summary features for the rest
    Ignored,
};

std::string_view columnRoleName(ColumnRole role);

// The roles a user asks for, as on the command line (--target, --features,
// --ignore, --sequence-column). Empty fields keep the inferred defaults.
struct RoleRequest
{
    std::string target;
    std::vector<std::string> features; // when set, the only feature columns
    std::vector<std::string> ignored;
    std::string sequenceColumn;
};

// Returns the role inferred from a column's type alone: numeric and categorical
// columns are features, the first sequence column is the sequence, identifiers
// and empty columns are ignored. Constant columns stay features: the analytic
// models read a probe dataset's "family" column even when every row shares it.
std::vector<ColumnRole> defaultRoles(const Table &table);

// The roles a column of this type can take: a target must be numeric, only a
// layer-sequence column can be the sequence, a sequence column cannot be a plain
// feature, and every column can be ignored.
std::vector<ColumnRole> allowedRoles(const Column &column);

// Whether column holds at most one distinct value (missing cells aside).
bool isConstant(const Column &column);

// Returns one role per column of table after applying request to the defaults.
// Throws io::InputError naming the column (and, for a non-numeric target, the
// first offending cell) when a request cannot be met.
std::vector<ColumnRole> assignRoles(const Table &table, const RoleRequest &request);

// Returns numeric columns that could be the target, most likely first: those
// whose name speaks of memory, then the other non-constant numeric columns.
std::vector<std::string> targetCandidates(const Table &table);

} // namespace gpumem::data
