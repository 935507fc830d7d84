// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QTableView;
class QWidget;

namespace gpumem::ui {

// Widens every column of table that is narrower than its header's text (a larger font, a longer
// two-line header), so that no header is cut: a column the user or the table sized gets the
// header's width, a stretched one a minimum of it; the table scrolls sideways when they no longer
// fit. Follows the table's later columns (another file loaded) too.
void fitHeadersToText(QTableView *table);

// The same for every table below root.
void fitHeadersToTextBelow(QWidget *root);

} // namespace gpumem::ui
