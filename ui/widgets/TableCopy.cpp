// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/TableCopy.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QItemSelectionModel>

#include <map>
#include <set>

namespace gpumem::ui {

namespace {

QString cleanCell(QString text)
{
    // Tabs and line breaks inside a cell would break the rows and columns apart.
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

} // namespace

QString selectionAsTabSeparatedText(const QAbstractItemView *view)
{
    const QAbstractItemModel *model = view->model();
    if (!model)
        return {};
    std::map<int, std::set<int>> cells;
    std::set<int> columns;
    if (view->selectionModel() && view->selectionModel()->hasSelection()) {
        for (const QModelIndex &index : view->selectionModel()->selectedIndexes()) {
            cells[index.row()].insert(index.column());
            columns.insert(index.column());
        }
    } else {
        for (int column = 0; column < model->columnCount(); ++column)
            columns.insert(column);
        for (int row = 0; row < model->rowCount(); ++row)
            cells[row] = columns;
    }
    QStringList lines;
    QStringList header;
    for (int column : columns)
        header << cleanCell(model->headerData(column, Qt::Horizontal).toString());
    lines << header.join(QLatin1Char('\t'));
    for (const auto &[row, rowColumns] : cells) {
        QStringList fields;
        for (int column : columns)
            fields << (rowColumns.count(column) ? cleanCell(model->index(row, column).data().toString()) : QString());
        lines << fields.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void installTableCopy(QAbstractItemView *view)
{
    auto *copy = new QAction(QObject::tr("Copy as tab-separated text"), view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    copy->setObjectName(QStringLiteral("copyTableAction"));
    QObject::connect(copy, &QAction::triggered, view,
                     [view] { QApplication::clipboard()->setText(selectionAsTabSeparatedText(view)); });
    view->addAction(copy);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace gpumem::ui
