// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"
#include "probe/ProbeRunner.h"
#include "runtime/ProgressObserver.h"
#include "training/TrainingProgress.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <mutex>
#include <vector>

class QProgressBar;

namespace gpumem::ui {

// A progress event from core, tagged with the model and fold it belongs to
// (empty model and fold 0 for a single training).
struct BatchEvent
{
    QString model;
    int fold = 0;
    training::BatchProgress progress;
};

struct EpochEvent
{
    QString model;
    int fold = 0;
    training::EpochProgress progress;
    int member = -1; // the ensemble's network the epoch is of; -1: the model's own (an ensemble's mean)
};

// The one adapter from core's observers to Qt signals, for every long
// operation: a table load (runtime::ProgressObserver), a training, an
// experiment and the probe. Core calls it on a worker thread; it buffers batch
// and epoch events under a short lock and signals only when the buffer turns
// non-empty, so a burst of events costs one queued signal; the GUI thread then
// moves the whole buffer out with takeBatches()/takeEpochs(). Progress, already
// throttled at its source, and rare events (fit started, model finished, a probe
// job) become signals directly. Create it on the GUI thread; connect to its
// signals with Qt::QueuedConnection.
class ProgressBridge : public QObject,
                       public training::TrainingObserver,
                       public evaluation::ExperimentObserver,
                       public probe::ProbeObserver
{
    Q_OBJECT

  public:
    explicit ProgressBridge(QObject *parent = nullptr);

    // Moves the buffered events out. GUI thread.
    std::vector<BatchEvent> takeBatches();
    std::vector<EpochEvent> takeEpochs();
    // Calls batchesTaker and epochsTaker (receiver's member functions or callables that
    // move the events out) on receiver's thread whenever events are buffered.
    template <typename Receiver, typename BatchesTaker, typename EpochsTaker>
    void deliverEventsTo(Receiver *receiver, BatchesTaker batchesTaker, EpochsTaker epochsTaker)
    {
        // Explicitly queued, so that it stays queued even if the bridge is ever moved or
        // called from the GUI thread: only that thread may touch the widgets.
        connect(this, &ProgressBridge::batchesReady, receiver, batchesTaker, Qt::QueuedConnection);
        connect(this, &ProgressBridge::epochsReady, receiver, epochsTaker, Qt::QueuedConnection);
    }
    // Shows the operation's share done on bar, whose range becomes 0..1000, on the GUI thread.
    void showProgressOn(QProgressBar *bar);

    // runtime::ProgressObserver, shared by every operation; called on its thread.
    void progressChanged(double fraction) override;

    // training::TrainingObserver, called on the training thread.
    void batchFinished(const training::BatchProgress &progress) override;
    void epochFinished(const training::EpochProgress &progress) override;
    void memberEpochFinished(int member, const training::EpochProgress &progress) override;

    // evaluation::ExperimentObserver, called on the runner's threads one at a time.
    void fitStarted(const std::string &model, int fold, int folds) override;
    void batchFinished(const std::string &model, int fold, const training::BatchProgress &progress) override;
    void epochFinished(const std::string &model, int fold, const training::EpochProgress &progress) override;
    void foldFinished(const std::string &model, const evaluation::FoldResult &result) override;
    void modelFinished(const evaluation::ModelResult &result) override;

    // probe::ProbeObserver, called on the probe's thread.
    void jobFinished(const probe::ProbeProgress &progress) override;

  Q_SIGNALS:
    // Emitted from the worker thread when the batch buffer turns non-empty.
    void batchesReady();
    void epochsReady();
    void fitStarting(const QString &model, int fold, int folds);
    void foldCompleted(const QString &model, int fold);
    void modelCompleted(const QString &model);
    // The operation's share done (0..1), in the visible steps its source reports.
    void progressAdvanced(double fraction);
    // A probe job was measured or skipped: done of total configurations handled.
    void jobCompleted(quint64 done, quint64 total);

  private:
    void addBatch(BatchEvent event);
    void addEpoch(EpochEvent event);

    std::mutex mMutex;                // guards mBatches and mEpochs
    std::vector<BatchEvent> mBatches; // guarded by mMutex
    std::vector<EpochEvent> mEpochs;  // guarded by mMutex
};

} // namespace gpumem::ui
