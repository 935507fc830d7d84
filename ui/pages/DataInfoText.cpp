// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/DataInfoText.h"

#include "data/ColumnNotes.h"
#include "data/RoleNotes.h"
#include "ui/app/WorkbenchState.h"
#include "ui/widgets/QtText.h"

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
    // Constant columns start ignored (data::suggestedRoles), as on the command line; saying
    // so keeps a user from wondering where a column went, and tells them how to bring it back.
    const auto constants = data::ignoredConstantColumns(*table, roles);
    if (!constants.empty()) {
        QString note = qtText(data::constantColumnsNote(constants));
        note[0] = note[0].toUpper();
        text += QStringLiteral("<br>") + note.toHtmlEscaped() + QObject::tr(". Give a column a role to use it.");
    }
    return text;
}

} // namespace gpumem::ui
