// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/HeaderFit.h"

#include "ui/widgets/ConnectOnce.h"

#include <QHeaderView>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace gpumem::ui {

namespace {

const char *const followedProperty = "gpumemHeadersFollowed";

void fitNow(QTableView *table)
{
    QHeaderView *header = table->horizontalHeader();
    if (!table->model() || header->isHidden())
        return;
    int stretchedNeed = 0;
    for (int column = 0; column < header->count(); ++column) {
        if (header->isSectionHidden(column))
            continue;
        const int needed = header->sectionSizeHint(column);
        switch (header->sectionResizeMode(column)) {
        case QHeaderView::Stretch: stretchedNeed = std::max(stretchedNeed, needed); break;
        case QHeaderView::ResizeToContents: break; // sized by Qt to its header and cells already
        default:
            if (header->sectionSize(column) < needed)
                header->resizeSection(column, needed);
        }
    }
    if (stretchedNeed > header->minimumSectionSize())
        header->setMinimumSectionSize(stretchedNeed);
}

} // namespace

void fitHeadersToText(QTableView *table)
{
    if (!table)
        return;
    // Later, not now: the columns are being made when the count changes.
    connectOnce(followedProperty, table->horizontalHeader(), &QHeaderView::sectionCountChanged, table,
                [table] { QTimer::singleShot(0, table, [table] { fitNow(table); }); });
    fitNow(table);
}

void fitHeadersToTextBelow(QWidget *root)
{
    for (QTableView *table : root->findChildren<QTableView *>())
        fitHeadersToText(table);
}

} // namespace gpumem::ui
