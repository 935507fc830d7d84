// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace gpumem::ui {

class WorkbenchState;

// The Data page's line about the loaded file (rich text): its name and size, and the
// columns that start ignored and why (one value in every row; another outcome of the
// job, as the file's column notes say), so that no column disappears without a word.
QString dataInfoText(const WorkbenchState &state);

} // namespace gpumem::ui
