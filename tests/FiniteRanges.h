// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The value ranges every chart must draw, from ordinary memory figures to the edges
// of the doubles that a report of hostile data can hold: columns low and high.
#include "DataTables.h"

namespace gpumem::tests {

inline void addFiniteRangeRows()
{
    addColumns<double, double>("low", "high");
    addRow("ordinary", 1500.0, 4900.0);
    addRow("1e80", 1e80, 9e80);
    addRow("the whole double range", -1.7e308, 1.7e308);
    addRow("one value", 42.0, 42.0);
    addRow("denormal", 4.9e-324, 1e-300);
}

} // namespace gpumem::tests
