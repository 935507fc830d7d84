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
    // Start every complete constant column (see holdsOneValue) ignored rather than as a
    // feature: no model learns from it. The workbench's default; the command line keeps
    // such columns unless --ignore names them. Features named above still count.
    bool ignoreConstantColumns = false;
};

// Returns the role inferred from a column's type alone: numeric and categorical
// columns are features, the first sequence column is the sequence, identifiers
// and empty columns are ignored.
std::vector<ColumnRole> defaultRoles(const Table &table);

// The roles a column of this type can take: a target must be numeric, only a
// layer-sequence column can be the sequence, a sequence column cannot be a plain
// feature, and every column can be ignored.
std::vector<ColumnRole> allowedRoles(const Column &column);

// The columns among columns (indices into table) whose type can take role
// (allowedRoles), in their order: those a role given to several at once reaches.
std::vector<std::size_t> columnsTaking(const Table &table, const std::vector<std::size_t> &columns, ColumnRole role);

// Whether column holds at most one distinct value (missing cells aside).
bool isConstant(const Column &column);

// Whether every row of column holds the same valid value: a numeric or categorical
// column with no missing or invalid cell and one distinct value. Such a column
// carries nothing to learn, but it still describes the jobs (a probe dataset's
// `family`), so Dataset keeps its value when it is ignored.
bool holdsOneValue(const Column &column);

// Returns one role per column of table after applying request to the defaults.
// Throws io::InputError naming the column (and, for a non-numeric target, the
// first offending cell) when a request cannot be met.
std::vector<ColumnRole> assignRoles(const Table &table, const RoleRequest &request);

// Returns the roles the workbench starts a newly loaded table with: the defaults,
// the first of targetCandidates() as the target, and constant columns ignored
// (unless that would leave nothing to learn from). Throws like assignRoles.
std::vector<ColumnRole> suggestedRoles(const Table &table);

// Returns numeric columns that could be the target, most likely first: those
// whose name speaks of memory, then the other non-constant numeric columns.
std::vector<std::string> targetCandidates(const Table &table);

} // namespace gpumem::data
