// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/ColumnRoleMenu.h"

#include "ui/widgets/QtText.h"

#include <QMenu>
#include <QObject>
#include <QStringList>

#include <algorithm>

namespace gpumem::ui {

QString columnRoleHelp(data::ColumnRole role)
{
    switch (role) {
    case data::ColumnRole::Feature: return QObject::tr("An input of every model");
    case data::ColumnRole::Target: return QObject::tr("The value to predict (peak GPU memory); must be numeric");
    case data::ColumnRole::Sequence:
        return QObject::tr("The layer sequence: tokens for the neural network, summary features for the others");
    case data::ColumnRole::Ignored: return QObject::tr("Left out of every model");
    }
    return {};
}

bool isSingularRole(data::ColumnRole role)
{
    return role == data::ColumnRole::Target || role == data::ColumnRole::Sequence;
}

void addColumnRoleMenu(QMenu &menu, const data::Table &table, const std::vector<std::size_t> &columns,
                       const std::function<void(const std::vector<std::size_t> &, data::ColumnRole)> &apply)
{
    QMenu *roles =
        menu.addMenu(columns.size() == 1 ? QObject::tr("Set role of %1").arg(qtText(table.column(columns[0]).name))
                                         : QObject::tr("Set role of %1 selected columns").arg(columns.size()));
    roles->setObjectName(QStringLiteral("setRoleMenu"));
    roles->setToolTipsVisible(true);
    for (const auto role :
         {data::ColumnRole::Feature, data::ColumnRole::Target, data::ColumnRole::Sequence, data::ColumnRole::Ignored}) {
        // The columns whose type can take role; the others keep theirs, as in setRoleOfColumns.
        const std::vector<std::size_t> taking = data::columnsTaking(table, columns, role);
        const bool severalForOne = isSingularRole(role) && columns.size() > 1;
        QString name = qtText(data::columnRoleName(role));
        name[0] = name[0].toUpper();
        QString label = name;
        if (severalForOne)
            label = QObject::tr("%1 (select one column)").arg(name);
        else if (columns.size() > 1 && taking.size() == columns.size())
            label = QObject::tr("%1 (all %2 columns)").arg(name).arg(columns.size());
        else if (columns.size() > 1)
            label = QObject::tr("%1 (%2 of %3 columns)").arg(name).arg(taking.size()).arg(columns.size());
        QAction *action = roles->addAction(label);
        action->setObjectName(QStringLiteral("setRole_%1").arg(qtText(data::columnRoleName(role))));
        // The menu names the columns it skips, so that a partial change is no surprise.
        QString help = columnRoleHelp(role);
        if (taking.size() < columns.size() && !severalForOne) {
            QStringList skipped;
            for (const std::size_t column : columns)
                if (std::find(taking.begin(), taking.end(), column) == taking.end())
                    skipped << qtText(table.column(column).name);
            help += skipped.size() == 1
                        ? QObject::tr(". Not for %1: its type cannot take this role").arg(skipped.front())
                        : QObject::tr(". Not for %1: their types cannot take this role")
                              .arg(skipped.join(QStringLiteral(", ")));
        }
        action->setToolTip(help);
        action->setEnabled(!taking.empty() && !severalForOne);
        QObject::connect(action, &QAction::triggered, roles, [apply, taking, role] { apply(taking, role); });
    }
}

} // namespace gpumem::ui
