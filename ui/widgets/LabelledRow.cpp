// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/LabelledRow.h"

#include <QLabel>

namespace gpumem::ui {

QHBoxLayout *labelledRow(const QString &caption, QWidget *widget, QWidget *parent)
{
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(caption, parent));
    row->addWidget(widget, 1);
    return row;
}

} // namespace gpumem::ui
