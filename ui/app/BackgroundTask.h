// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/OperationControl.h"
#include "ui/app/BackgroundThreads.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <memory>
#include <utility>

namespace gpumem::ui {

// Runs work(outcome) on the workbench's thread pool (backgroundThreadPool), at a
// priority below the GUI's (yieldToTheGui), and returns the future of the outcome.
// Nothing escapes the worker thread: an exception work throws becomes
// outcome.error, its one-line message (io::InputError names file:line:column).
template <typename Outcome, typename Work> QFuture<Outcome> runInBackground(Work work)
{
    return QtConcurrent::run(backgroundThreadPool(), [work = std::move(work)]() mutable {
        yieldToTheGui();
        Outcome outcome;
        try {
            work(outcome);
        } catch (const std::exception &error) {
            outcome.error = QString::fromStdString(error.what());
        }
        return outcome;
    });
}

// The one background job a page runs at a time, with the control that pauses,
// resumes and cancels it. Destroying it cancels the job and waits for it to end,
// so that no worker outlives the page it reports to: declare it after the members
// the worker reaches, so that it goes first.
template <typename Outcome> class BackgroundJob
{
  public:
    // finished runs on receiver's thread whenever a job has ended; take() gives its outcome.
    template <typename Receiver> BackgroundJob(Receiver *receiver, void (Receiver::*finished)())
    {
        QObject::connect(&mWatcher, &QFutureWatcherBase::finished, receiver, finished);
    }
    ~BackgroundJob()
    {
        cancel();
        mWatcher.waitForFinished();
    }
    BackgroundJob(const BackgroundJob &) = delete;
    BackgroundJob &operator=(const BackgroundJob &) = delete;

    // Runs work(outcome, control) as runInBackground does, under a fresh control.
    template <typename Work> void start(Work work)
    {
        // A fresh control per job: a cancelled job's control must not stop the next.
        mControl = std::make_shared<runtime::OperationControl>();
        mWatcher.setFuture(runInBackground<Outcome>(
            [work = std::move(work), control = mControl](Outcome &outcome) mutable { work(outcome, control.get()); }));
    }
    bool isRunning() const { return mWatcher.isRunning(); }
    // The running job's control, or nullptr when no job runs.
    runtime::OperationControl *control() const { return isRunning() ? mControl.get() : nullptr; }
    // Asks the running job to stop after its current step; false when no job runs.
    bool cancel()
    {
        runtime::OperationControl *running = control();
        if (running)
            running->cancel();
        return running != nullptr;
    }
    // The outcome of the job that has ended.
    Outcome take()
    {
        mControl.reset();
        return mWatcher.result();
    }

  private:
    QFutureWatcher<Outcome> mWatcher;
    std::shared_ptr<runtime::OperationControl> mControl; // shared with the worker; thread-safe itself
};

} // namespace gpumem::ui
