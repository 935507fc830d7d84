// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace gpumem::ui {

// Returns seconds as "m:ss" (or "h:mm:ss"); "–" for a negative or non-finite time.
QString durationText(double seconds);

} // namespace gpumem::ui
