// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Table.h"

#include <string>
#include <vector>

namespace gpumem::data {

// The columns that roles ignore because they hold one value in every row (see
// holdsOneValue and RoleRequest::ignoreConstantColumns), other than those named in
// alsoIgnored (columns a user asked to ignore need no word), in table order.
std::vector<std::string> ignoredConstantColumns(const Table &table, const std::vector<ColumnRole> &roles,
                                                const std::vector<std::string> &alsoIgnored = {});

// The one line every front-end shows for them, e.g. "ignored 2 columns that hold one
// value in every row (nothing to learn from): 'steps', 'device'"; empty for none.
std::string constantColumnsNote(const std::vector<std::string> &columns);

} // namespace gpumem::data
