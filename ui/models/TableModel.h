// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Table.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace gpumem::ui {

// A read-only Qt model over a data::Table. Cells are formatted only when a view
// asks for them, so a million-row table costs nothing beyond the table itself.
// Bad cells (missing, invalid) are tinted; headers show each column's type and role.
// GUI thread only.
class TableModel : public QAbstractTableModel
{
    Q_OBJECT

  public:
    explicit TableModel(QObject *parent = nullptr);

    void setTable(std::shared_ptr<const data::Table> table);
    void setRoles(const std::vector<data::ColumnRole> &roles);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::shared_ptr<const data::Table> mTable;
    std::vector<data::ColumnRole> mRoles;
};

// Returns a cell of table as text: numbers with up to ten significant digits,
// categories by value, layer sequences as "3 layers: linear, ReLU, linear".
QString cellText(const data::Table &table, std::size_t row, std::size_t column);

} // namespace gpumem::ui
