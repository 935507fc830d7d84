// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"

class QCustomPlot;

namespace gpumem::ui {

// Replaces what plot shows with a histogram of column's finite values (about the
// square root of their count in bins, at most 60), the axis labelled with the
// column's name, and replots. A column without a finite value leaves plot empty.
void drawHistogram(QCustomPlot *plot, const data::Column &column);

} // namespace gpumem::ui
