// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

class QTableWidget;

namespace gpumem::ui {

// Gives table what every table of results starts with: its columns, headed by headers, no row
// numbers, no cell to edit, and Ctrl+C and a context menu entry to copy the selection
// (installTableCopy).
void prepareResultTable(QTableWidget *table, const QStringList &headers);

} // namespace gpumem::ui
