// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/PaneSplitter.h"

#include <QSplitter>

namespace gpumem::ui {

QSplitter *paneSplitter(QWidget *first, int firstStretch, QWidget *second, int secondStretch, QWidget *parent,
                        Qt::Orientation orientation)
{
    auto *splitter = new QSplitter(orientation, parent);
    splitter->addWidget(first);
    splitter->addWidget(second);
    splitter->setStretchFactor(0, firstStretch);
    splitter->setStretchFactor(1, secondStretch);
    return splitter;
}

} // namespace gpumem::ui
