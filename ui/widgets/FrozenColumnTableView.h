// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTableView>

namespace gpumem::ui {

// A table view whose first column stays in place while the others scroll sideways, so
// that each row keeps its name in view (the Compare page's model names beside many
// metric columns). A second view, laid over the first column, shows that column with
// the same model, selection and row heights.
class FrozenColumnTableView : public QTableView
{
    Q_OBJECT

  public:
    explicit FrozenColumnTableView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    // The view over the first column.
    QTableView *frozenColumn() const { return mFrozen; }

  protected:
    void resizeEvent(QResizeEvent *event) override;
    void updateGeometries() override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void scrollTo(const QModelIndex &index, ScrollHint hint = EnsureVisible) override;

  private:
    void showFirstColumnOnly();
    void placeFrozenColumn();

    QTableView *mFrozen;
};

} // namespace gpumem::ui
