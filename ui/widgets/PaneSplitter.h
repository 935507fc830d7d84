// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSplitter>

namespace gpumem::ui {

// Returns a splitter of the panes first and second, which share its length as
// firstStretch to secondStretch when the splitter grows.
QSplitter *paneSplitter(QWidget *first, int firstStretch, QWidget *second, int secondStretch, QWidget *parent,
                        Qt::Orientation orientation = Qt::Horizontal);

} // namespace gpumem::ui
