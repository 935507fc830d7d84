// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/ResultTable.h"

#include "ui/widgets/TableCopy.h"

#include <QHeaderView>
#include <QTableWidget>

namespace gpumem::ui {

void prepareResultTable(QTableWidget *table, const QStringList &headers)
{
    table->setColumnCount(static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    installTableCopy(table);
}

} // namespace gpumem::ui
