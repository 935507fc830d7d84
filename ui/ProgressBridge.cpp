// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ProgressBridge.h"

#include "ui/QtText.h"

namespace gpumem::ui {

ProgressBridge::ProgressBridge(QObject *parent)
    : QObject(parent)
{
}

std::vector<BatchEvent> ProgressBridge::takeBatches()
{
    std::vector<BatchEvent> taken;
    const std::lock_guard lock(mMutex);
    taken.swap(mBatches);
    return taken;
}

std::vector<EpochEvent> ProgressBridge::takeEpochs()
{
    std::vector<EpochEvent> taken;
    const std::lock_guard lock(mMutex);
    taken.swap(mEpochs);
    return taken;
}

void ProgressBridge::addBatch(BatchEvent event)
{
    bool wasEmpty = false;
    {
        const std::lock_guard lock(mMutex);
        wasEmpty = mBatches.empty();
        mBatches.push_back(std::move(event));
    }
    // A non-empty buffer already has a signal on its way; the GUI takes everything at once.
    if (wasEmpty)
        Q_EMIT batchesReady();
}

void ProgressBridge::addEpoch(EpochEvent event)
{
    bool wasEmpty = false;
    {
        const std::lock_guard lock(mMutex);
        wasEmpty = mEpochs.empty();
        mEpochs.push_back(std::move(event));
    }
    if (wasEmpty)
        Q_EMIT epochsReady();
}

void ProgressBridge::batchFinished(const training::BatchProgress &progress)
{
    addBatch({QString(), 0, progress});
}

void ProgressBridge::epochFinished(const training::EpochProgress &progress)
{
    addEpoch({QString(), 0, progress});
}

void ProgressBridge::fitStarted(const std::string &model, int fold, int folds)
{
    Q_EMIT fitStarting(qtText(model), fold, folds);
}

void ProgressBridge::batchFinished(const std::string &model, int fold, const training::BatchProgress &progress)
{
    addBatch({qtText(model), fold, progress});
}

void ProgressBridge::epochFinished(const std::string &model, int fold, const training::EpochProgress &progress)
{
    addEpoch({qtText(model), fold, progress});
}

void ProgressBridge::foldFinished(const std::string &model, const evaluation::FoldResult &result)
{
    Q_EMIT foldCompleted(qtText(model), result.fold);
}

void ProgressBridge::modelFinished(const evaluation::ModelResult &result)
{
    Q_EMIT modelCompleted(qtText(result.name));
}

void ProgressBridge::progressChanged(double fraction)
{
    Q_EMIT progressAdvanced(fraction);
}

void ProgressBridge::jobFinished(const probe::ProbeProgress &progress)
{
    Q_EMIT jobCompleted(progress.done, progress.total);
}

} // namespace gpumem::ui
