// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/ProgressObserver.h"
#include "training/TrainingProgress.h"

namespace gpumem::training {

// Passes a fit's batches and epochs on to another observer and reports the share
// of the fit done (fitShare) to it as progressChanged, in visible steps. The
// models report batches and epochs; whoever drives one fit puts this between the
// model and its observer, so a training feeds the same progress bar as a table
// load, the probe or an experiment. Called on the training thread.
class FitProgressRelay : public TrainingObserver
{
  public:
    explicit FitProgressRelay(TrainingObserver *next);

    void batchFinished(const BatchProgress &progress) override;
    void epochFinished(const EpochProgress &progress) override;
    void memberEpochFinished(int member, const EpochProgress &progress) override;

  private:
    TrainingObserver *mNext;
    runtime::ProgressThrottle mThrottle;
};

} // namespace gpumem::training
