// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/ProgressBridge.h"

#include "ui/widgets/QtText.h"

#include <QProgressBar>

namespace gpumem::ui {

namespace {

// Moves the whole buffer out under mutex.
template <typename Event> std::vector<Event> takeAll(std::mutex &mutex, std::vector<Event> &buffer)
{
    std::vector<Event> taken;
    const std::lock_guard lock(mutex);
    taken.swap(buffer);
    return taken;
}

// Appends event under mutex; true when the buffer was empty before.
template <typename Event> bool appendToEmpty(std::mutex &mutex, std::vector<Event> &buffer, Event event)
{
    const std::lock_guard lock(mutex);
    buffer.push_back(std::move(event));
    return buffer.size() == 1;
}

} // namespace

ProgressBridge::ProgressBridge(QObject *parent)
    : QObject(parent)
{
}

std::vector<BatchEvent> ProgressBridge::takeBatches()
{
    return takeAll(mMutex, mBatches);
}

std::vector<EpochEvent> ProgressBridge::takeEpochs()
{
    return takeAll(mMutex, mEpochs);
}

void ProgressBridge::showProgressOn(QProgressBar *bar)
{
    bar->setRange(0, 1000);
    // Progress comes from the operation's thread, already in visible steps.
    connect(
        this, &ProgressBridge::progressAdvanced, bar,
        [bar](double fraction) { bar->setValue(static_cast<int>(1000.0 * fraction)); }, Qt::QueuedConnection);
}

// A non-empty buffer already has a signal on its way; the GUI takes everything at once.
void ProgressBridge::addBatch(BatchEvent event)
{
    if (appendToEmpty(mMutex, mBatches, std::move(event)))
        Q_EMIT batchesReady();
}

void ProgressBridge::addEpoch(EpochEvent event)
{
    if (appendToEmpty(mMutex, mEpochs, std::move(event)))
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

void ProgressBridge::memberEpochFinished(int member, const training::EpochProgress &progress)
{
    addEpoch({QString(), 0, progress, member});
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
