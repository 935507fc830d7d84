// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace gpumem::runtime {

// Receives the progress of a long operation: loading a table, the probe, a
// training or an experiment. Each operation's own observer (training::
// TrainingObserver, evaluation::ExperimentObserver, probe::ProbeObserver) derives
// from it and adds the operation's typed events, so one progress bar serves all.
// Called on the operation's thread; implementations must be quick and must not block.
class ProgressObserver
{
  public:
    virtual ~ProgressObserver() = default;
    // The share (0..1) of the operation done. Sources report it through a
    // ProgressThrottle: only when it has moved by a visible step, never going
    // back, and once at 1 when the operation completes.
    virtual void progressChanged(double /*fraction*/) {}
};

// Throttles progress at its source: passes a share on to an observer only when it
// has moved by at least step since the last report, or first reaches 1, so a
// million rows or batches cost the observer about 1/step calls. A share below the
// last report is ignored. A null observer makes it do nothing. Not thread-safe:
// one operation (or its lock) drives it.
class ProgressThrottle
{
  public:
    // The smallest move a progress bar shows: one percent.
    static constexpr double visibleStep = 0.01;

    explicit ProgressThrottle(ProgressObserver *observer, double step = visibleStep);

    // The operation has done fraction (clamped to [0, 1]) of its work.
    void advance(double fraction);
    // The share last reported (0 before any report).
    double reported() const { return mReported; }
    bool isWatched() const { return mObserver != nullptr; }

  private:
    ProgressObserver *mObserver;
    double mStep;
    double mReported = 0.0;
};

} // namespace gpumem::runtime
