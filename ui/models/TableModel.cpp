// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/TableModel.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace gpumem::ui {

QString cellText(const data::Table &table, std::size_t row, std::size_t column)
{
    const data::Column &cells = table.column(column);
    switch (cells.type) {
    case data::ColumnType::Numeric: {
        const double value = cells.numbers[row];
        return std::isnan(value) ? QString() : QString::number(value, 'g', 10);
    }
    case data::ColumnType::Categorical:
    case data::ColumnType::Identifier: {
        const std::int32_t code = cells.codes[row];
        return code < 0 ? QString() : QString::fromStdString(cells.categories[static_cast<std::size_t>(code)]);
    }
    case data::ColumnType::Sequence: {
        const auto &sequences = cells.sequences;
        if (!sequences.isPresent(row))
            return {};
        QStringList types;
        // A preview, not the whole sequence: long rows would make wide, slow cells.
        constexpr std::size_t shown = 6;
        const std::size_t begin = sequences.layerBegin(row);
        const std::size_t end = std::min(sequences.layerEnd(row), begin + shown);
        for (std::size_t layer = begin; layer < end; ++layer)
            types << QString::fromStdString(sequences.layerTypes()[sequences.layerType(layer)]);
        if (sequences.layerCount(row) > shown)
            types << QStringLiteral("…");
        const auto count = static_cast<qulonglong>(sequences.layerCount(row));
        return (count == 1 ? QObject::tr("1 layer: %1") : QObject::tr("%1 layers: %2").arg(count))
            .arg(types.join(QStringLiteral(", ")));
    }
    case data::ColumnType::Empty: break;
    }
    return {};
}

TableModel::TableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TableModel::setTable(std::shared_ptr<const data::Table> table)
{
    beginResetModel();
    mTable = std::move(table);
    mRoles.clear();
    endResetModel();
}

void TableModel::setRoles(const std::vector<data::ColumnRole> &roles)
{
    mRoles = roles;
    if (mTable && mTable->columnCount() > 0)
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, static_cast<int>(mTable->columnCount()) - 1);
}

int TableModel::rowCount(const QModelIndex &parent) const
{
    return mTable && !parent.isValid() ? static_cast<int>(mTable->rowCount()) : 0;
}

int TableModel::columnCount(const QModelIndex &parent) const
{
    return mTable && !parent.isValid() ? static_cast<int>(mTable->columnCount()) : 0;
}

QVariant TableModel::data(const QModelIndex &index, int role) const
{
    if (!mTable || !index.isValid())
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const auto column = static_cast<std::size_t>(index.column());
    switch (role) {
    case Qt::DisplayRole: return cellText(*mTable, row, column);
    case Qt::TextAlignmentRole:
        return mTable->column(column).type == data::ColumnType::Numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                        : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        if (mTable->column(column).isBad(row))
            return QBrush(QColor(255, 205, 205));
        if (column < mRoles.size() && mRoles[column] == data::ColumnRole::Target)
            return QBrush(QColor(225, 238, 255));
        if (column < mRoles.size() && mRoles[column] == data::ColumnRole::Ignored)
            return QBrush(QColor(238, 238, 238));
        return {};
    case Qt::ToolTipRole:
        if (mTable->column(column).isBad(row))
            return tr("Missing or invalid cell (file line %1)").arg(mTable->rowLine(row));
        return {};
    default: return {};
    }
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!mTable || section < 0)
        return {};
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole && static_cast<std::size_t>(section) < mTable->rowCount())
            return QString::number(section + 1);
        return {};
    }
    const auto column = static_cast<std::size_t>(section);
    if (column >= mTable->columnCount())
        return {};
    const data::Column &cells = mTable->column(column);
    const QString type = QString::fromUtf8(data::columnTypeName(cells.type).data(),
                                           static_cast<int>(data::columnTypeName(cells.type).size()));
    const QString roleName =
        column < mRoles.size() ? QString::fromUtf8(data::columnRoleName(mRoles[column]).data()) : QString();
    if (role == Qt::DisplayRole)
        return roleName.isEmpty()
                   ? QStringLiteral("%1\n%2").arg(QString::fromStdString(cells.name), type)
                   : QStringLiteral("%1\n%2 · %3").arg(QString::fromStdString(cells.name), type, roleName);
    if (role == Qt::ToolTipRole)
        return tr("Column %1 (%2), used as %3; %4 missing, %5 invalid cells")
            .arg(QString::fromStdString(cells.name), type, roleName)
            .arg(cells.missingCount)
            .arg(cells.invalidCount);
    return {};
}

} // namespace gpumem::ui
