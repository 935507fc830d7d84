// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Table.h"

#include <QString>

#include <cstddef>
#include <functional>
#include <vector>

class QMenu;

namespace gpumem::ui {

// The one-sentence help of a column role, for role boxes and menus.
QString columnRoleHelp(data::ColumnRole role);

// Whether a dataset has at most one column of role (the target, the sequence), so
// that it is never given to several columns at once.
bool isSingularRole(data::ColumnRole role);

// Adds to menu a "Set role of …" submenu for columns (indices into table): one action per
// role, saying how many of the columns can take it and, in its tooltip, which cannot; a
// singular role only for one column. Triggering one calls apply with the columns that
// take the role (data::columnsTaking) and the role.
void addColumnRoleMenu(QMenu &menu, const data::Table &table, const std::vector<std::size_t> &columns,
                       const std::function<void(const std::vector<std::size_t> &, data::ColumnRole)> &apply);

} // namespace gpumem::ui
