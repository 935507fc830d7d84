// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QAbstractItemView;

namespace gpumem::ui {

// Returns the selected cells of view as tab-separated text with a header row,
// one line per row (the whole table when nothing is selected).
QString selectionAsTabSeparatedText(const QAbstractItemView *view);

// Gives view a Ctrl+C (QKeySequence::Copy) action that copies
// selectionAsTabSeparatedText() to the clipboard, plus a context menu entry.
void installTableCopy(QAbstractItemView *view);

} // namespace gpumem::ui
