// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSize>

class QScrollArea;
class QWidget;

namespace gpumem::ui {

// Returns wanted, made smaller where needed so that window, with its frame, fits in the
// available geometry of its screen (the screen less task bars and docks).
QSize sizeFittingScreen(const QWidget *window, QSize wanted);

// Shrinks and moves the top-level window so that its frame lies inside its screen's
// available geometry; nothing changes when it already does.
void keepOnScreen(QWidget *window);

// Returns a frameless scroll area that shows page at the size of the area, and scrolls
// only when the area is smaller than the page's minimum size: the page's minimum never
// forces the window wider or taller than the screen.
QScrollArea *scrollingPage(QWidget *page);

} // namespace gpumem::ui
