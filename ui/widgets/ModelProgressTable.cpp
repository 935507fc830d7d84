// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/ModelProgressTable.h"

#include <QHeaderView>
#include <QProgressBar>

#include <algorithm>

namespace gpumem::ui {

namespace {
constexpr int barSteps = 1000;
} // namespace

ModelProgressTable::ModelProgressTable(ProgressBridge *bridge, QWidget *parent)
    : QTableWidget(parent)
    , mBridge(bridge)
{
    setObjectName(QStringLiteral("modelProgress"));
    setToolTip(tr("Progress of each model over its folds"));
    setColumnCount(3);
    setHorizontalHeaderLabels({tr("Model"), tr("Progress"), tr("Status")});
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    verticalHeader()->hide();
    // Queued: the bridge signals from the experiment's worker threads.
    connect(
        mBridge, &ProgressBridge::fitStarting, this,
        [this](const QString &model, int fold, int folds) {
            if (ModelProgress *progress = progressOf(model)) {
                progress->folds = folds;
                item(progress->row, 2)->setText(tr("fold %1 of %2").arg(fold + 1).arg(folds));
            }
        },
        Qt::QueuedConnection);
    connect(
        mBridge, &ProgressBridge::foldCompleted, this,
        [this](const QString &model) {
            if (ModelProgress *progress = progressOf(model)) {
                ++progress->foldsDone;
                setModelFraction(model, 0.0);
            }
        },
        Qt::QueuedConnection);
    connect(
        mBridge, &ProgressBridge::modelCompleted, this,
        [this](const QString &model) {
            if (ModelProgress *progress = progressOf(model)) {
                progress->bar->setValue(barSteps);
                item(progress->row, 2)->setText(tr("done"));
            }
        },
        Qt::QueuedConnection);
}

void ModelProgressTable::reset(const std::vector<std::pair<QString, QString>> &models, int folds)
{
    mProgress.clear();
    setRowCount(static_cast<int>(models.size()));
    for (std::size_t index = 0; index < models.size(); ++index) {
        const int row = static_cast<int>(index);
        setItem(row, 0, new QTableWidgetItem(models[index].second));
        auto *bar = new QProgressBar(this);
        bar->setRange(0, barSteps);
        bar->setValue(0);
        setCellWidget(row, 1, bar);
        setItem(row, 2, new QTableWidgetItem(tr("waiting")));
        mProgress[models[index].first] = {row, 0, folds, bar};
    }
    resizeColumnToContents(0);
}

void ModelProgressTable::markUnfinishedCancelled()
{
    for (const auto &[model, progress] : mProgress)
        if (progress.bar->value() < barSteps)
            item(progress.row, 2)->setText(tr("cancelled"));
}

ModelProgressTable::ModelProgress *ModelProgressTable::progressOf(const QString &model)
{
    const auto it = mProgress.find(model);
    return it == mProgress.end() ? nullptr : &it->second;
}

void ModelProgressTable::setModelFraction(const QString &model, double withinFold)
{
    const ModelProgress *progress = progressOf(model);
    if (!progress)
        return;
    const double fraction = (progress->foldsDone + std::clamp(withinFold, 0.0, 1.0)) / std::max(1, progress->folds);
    progress->bar->setValue(static_cast<int>(barSteps * std::min(fraction, 1.0)));
}

void ModelProgressTable::takeEvents()
{
    // Only the latest batch and epoch of each model matter for its bar.
    std::map<QString, training::BatchProgress> batches;
    for (const auto &event : mBridge->takeBatches())
        batches[event.model] = event.progress;
    for (const auto &[model, progress] : batches) {
        const double total = static_cast<double>(progress.epochs) * static_cast<double>(progress.batches);
        const double done = static_cast<double>(progress.epoch - 1) * static_cast<double>(progress.batches) +
                            static_cast<double>(progress.batch);
        setModelFraction(model, total > 0.0 ? done / total : 0.0);
    }
    std::map<QString, training::EpochProgress> epochs;
    for (const auto &event : mBridge->takeEpochs())
        epochs[event.model] = event.progress;
    for (const auto &[model, progress] : epochs)
        setModelFraction(model, progress.epochs > 0 ? static_cast<double>(progress.epoch) / progress.epochs : 0.0);
}

} // namespace gpumem::ui
