// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/FrozenColumnTableView.h"

#include <QHeaderView>
#include <QScrollBar>

namespace gpumem::ui {

FrozenColumnTableView::FrozenColumnTableView(QWidget *parent)
    : QTableView(parent)
    , mFrozen(new QTableView(this))
{
    mFrozen->setObjectName(QStringLiteral("frozenColumn"));
    mFrozen->setFocusPolicy(Qt::NoFocus);
    mFrozen->verticalHeader()->hide();
    mFrozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    mFrozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    mFrozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    mFrozen->setVerticalScrollMode(ScrollPerPixel);
    // A frame, not a style sheet: a widget with a style sheet keeps its font when View ▸ Large font changes the
    // application's.
    mFrozen->setFrameShape(QFrame::NoFrame);
    setVerticalScrollMode(ScrollPerPixel);
    setHorizontalScrollMode(ScrollPerPixel);
    viewport()->stackUnder(mFrozen);
    // The two views scroll up and down together; the frozen one never sideways.
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, mFrozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(mFrozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int section, int, int size) {
        if (section == 0) {
            mFrozen->setColumnWidth(0, size);
            placeFrozenColumn();
        }
    });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int section, int, int size) { mFrozen->setRowHeight(section, size); });
    // A click on the frozen header sorts as one on the table's own header would.
    connect(mFrozen->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int section) {
        if (!isSortingEnabled())
            return;
        const bool again = horizontalHeader()->sortIndicatorSection() == section;
        const Qt::SortOrder order = again && horizontalHeader()->sortIndicatorOrder() == Qt::AscendingOrder
                                        ? Qt::DescendingOrder
                                        : Qt::AscendingOrder;
        sortByColumn(section, order);
    });
}

void FrozenColumnTableView::setModel(QAbstractItemModel *model)
{
    QTableView::setModel(model);
    mFrozen->setModel(model);
    mFrozen->setSelectionModel(selectionModel());
    if (model) {
        connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnTableView::showFirstColumnOnly);
        connect(model, &QAbstractItemModel::columnsInserted, this, &FrozenColumnTableView::showFirstColumnOnly);
        connect(model, &QAbstractItemModel::layoutChanged, this, &FrozenColumnTableView::showFirstColumnOnly);
    }
    showFirstColumnOnly();
}

void FrozenColumnTableView::showFirstColumnOnly()
{
    if (!model())
        return;
    for (int column = 0; column < model()->columnCount(); ++column)
        mFrozen->setColumnHidden(column, column != 0);
    mFrozen->setColumnWidth(0, columnWidth(0));
    for (int row = 0; row < model()->rowCount(); ++row)
        mFrozen->setRowHeight(row, rowHeight(row));
    mFrozen->horizontalHeader()->setFixedHeight(horizontalHeader()->height());
    placeFrozenColumn();
}

void FrozenColumnTableView::placeFrozenColumn()
{
    mFrozen->setVisible(model() && model()->columnCount() > 0);
    mFrozen->horizontalHeader()->setFixedHeight(horizontalHeader()->height());
    mFrozen->setGeometry(verticalHeader()->width() + frameWidth(), frameWidth(), columnWidth(0),
                         viewport()->height() + horizontalHeader()->height());
}

void FrozenColumnTableView::resizeEvent(QResizeEvent *event)
{
    QTableView::resizeEvent(event);
    placeFrozenColumn();
}

void FrozenColumnTableView::updateGeometries()
{
    QTableView::updateGeometries();
    placeFrozenColumn();
}

QModelIndex FrozenColumnTableView::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers)
{
    const QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    // A cell moved to from the keyboard must not end up hidden under the frozen column.
    if (cursorAction == MoveLeft && current.column() > 0 &&
        visualRect(current).topLeft().x() < mFrozen->columnWidth(0)) {
        const int shift = visualRect(current).topLeft().x() - mFrozen->columnWidth(0);
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + shift);
    }
    return current;
}

void FrozenColumnTableView::scrollTo(const QModelIndex &index, ScrollHint hint)
{
    // The first column is always in view: scrolling to it would only shift the others.
    if (index.column() > 0)
        QTableView::scrollTo(index, hint);
}

} // namespace gpumem::ui
