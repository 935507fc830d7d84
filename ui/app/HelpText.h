// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace gpumem::ui {

// Returns the help panel's HTML for a page of the main window (0 data, 1 model,
// 2 training, 3 compare, 4 predict): what the page is for, how to use it, and
// what its terms mean.
QString pageHelp(int page);

} // namespace gpumem::ui
