// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/DataInfoText.h"

#include "data/ColumnNotes.h"
#include "ui/WorkbenchState.h"

#include <QFileInfo>
#include <QObject>
#include <QStringList>

namespace gpumem::ui {

QString dataInfoText(const WorkbenchState &state)
{
    const auto table = state.table();
    if (!table)
        return {};
    QString text = QObject::tr("<b>%1</b> — %L2 rows × %3 columns")
                       .arg(QFileInfo(state.dataPath()).fileName().toHtmlEscaped())
                       .arg(table->rowCount())
                       .arg(table->columnCount());
    const auto &roles = state.roles();
    const auto ignored = [&](const std::string &name) {
        const auto column = table->columnIndex(name);
        return column && *column < roles.size() && roles[*column] == data::ColumnRole::Ignored;
    };
    QStringList outcomes;
    for (const auto &name : data::otherOutcomes(*table, state.columnNotes(), state.targetName()))
        if (ignored(name))
            outcomes << QString::fromStdString(name).toHtmlEscaped();
    if (!outcomes.isEmpty())
        text += QStringLiteral("<br>") +
                QObject::tr("Ignored, other outcomes of each job that would give the target away (%1): %2.")
                    .arg(QFileInfo(QString::fromStdString(state.columnNotes().source)).fileName().toHtmlEscaped(),
                         outcomes.join(QStringLiteral(", ")));
    // Constant columns start ignored (data::suggestedRoles); saying so keeps a user from
    // wondering where a column went, and tells them how to bring it back.
    QStringList constants;
    for (std::size_t column = 0; column < roles.size() && column < table->columnCount(); ++column)
        if (roles[column] == data::ColumnRole::Ignored && data::holdsOneValue(table->column(column)))
            constants << QString::fromStdString(table->column(column).name).toHtmlEscaped();
    if (!constants.isEmpty())
        text +=
            QStringLiteral("<br>") +
            QObject::tr("Ignored, one value in every row (nothing to learn from): %1. Give a column a role to use it.",
                        nullptr, static_cast<int>(constants.size()))
                .arg(constants.join(QStringLiteral(", ")));
    return text;
}

} // namespace gpumem::ui
