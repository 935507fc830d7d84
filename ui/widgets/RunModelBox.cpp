// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/RunModelBox.h"

#include "ui/app/WorkbenchState.h"
#include "ui/widgets/QtText.h"

#include <QFileInfo>

#include <stdexcept>

namespace gpumem::ui {

RunModelBox::RunModelBox(WorkbenchState *state, QWidget *parent)
    : QComboBox(parent)
    , mState(state)
{
    setObjectName(QStringLiteral("runModelBox"));
    setToolTip(tr("Predict with the model of a training run: one trained in this session, or one a project "
                  "saved beside it"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(mState, &WorkbenchState::runsChanged, this, &RunModelBox::refill);
    connect(this, &QComboBox::activated, this, [this](int index) {
        const QVariant run = itemData(index);
        // The first line only asks; it stays on show so that the same run can be chosen again.
        setCurrentIndex(0);
        if (run.isValid())
            Q_EMIT runChosen(run.toULongLong());
    });
    refill();
}

prediction::SavedModel RunModelBox::savedModel(std::size_t run) const
{
    if (const auto model = mState->runModel(run))
        return {model, std::nullopt};
    const std::string &folder = mState->runs().at(run).modelFolder;
    if (folder.empty())
        throw std::out_of_range("run " + std::to_string(run + 1) + " kept no model");
    return prediction::loadSavedModel(folder);
}

bool RunModelBox::chooseRun(std::size_t run)
{
    const int index = findData(QVariant::fromValue<qulonglong>(run));
    if (index < 0)
        return false;
    Q_EMIT activated(index);
    return true;
}

void RunModelBox::refill()
{
    clear();
    addItem(tr("Model of a run…"));
    const auto &runs = mState->runs();
    for (std::size_t run = 0; run < runs.size(); ++run) {
        const bool inMemory = mState->runModel(run) != nullptr;
        if (!inMemory && runs[run].modelFolder.empty())
            continue;
        const QString where = inMemory ? tr("this session") : QFileInfo(qtText(runs[run].modelFolder)).fileName();
        addItem(tr("%1 (%2)").arg(qtText(runs[run].name), where), QVariant::fromValue<qulonglong>(run));
        setItemData(count() - 1, qtText(runs[run].modelFolder), Qt::ToolTipRole);
    }
    setEnabled(count() > 1);
}

} // namespace gpumem::ui
