// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>

#include <cstddef>

namespace gpumem::ui {

// Returns the colour of the index-th model of a chart that draws several in one
// plot (the first eight of Matplotlib's default cycle), so that a model keeps its
// colour from one such chart to the next.
QColor modelColour(std::size_t index);

} // namespace gpumem::ui
