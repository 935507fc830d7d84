// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHBoxLayout>

namespace gpumem::ui {

// Returns a row of caption and the widget it names, the widget taking the spare
// width; more widgets can follow it. The label belongs to parent.
QHBoxLayout *labelledRow(const QString &caption, QWidget *widget, QWidget *parent);

} // namespace gpumem::ui
