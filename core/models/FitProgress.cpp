// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/FitProgress.h"

namespace gpumem::models {

bool stopRequested(runtime::OperationControl *control)
{
    return control && !control->waitWhilePaused();
}

training::TrainingResult cancelledFit(int done, int total, const std::string &steps)
{
    training::TrainingResult result;
    result.stopReason = training::StopReason::Cancelled;
    result.message = "cancelled after " + std::to_string(done) + " of " + std::to_string(total) + " " + steps;
    return result;
}

training::EpochProgress stepProgress(int step, int steps, double trainLoss, const runtime::Stopwatch &time)
{
    training::EpochProgress progress;
    progress.epoch = step;
    progress.epochs = steps;
    progress.trainLoss = trainLoss;
    progress.elapsedSeconds = time.seconds();
    progress.remainingSeconds = progress.elapsedSeconds / step * (steps - step);
    progress.best = step == steps;
    return progress;
}

training::TrainingResult singleStepFit(double trainLoss, training::TrainingObserver *observer)
{
    training::TrainingResult result;
    result.epochs.push_back(stepProgress(1, 1, trainLoss, runtime::Stopwatch()));
    result.bestEpoch = 1;
    if (observer)
        observer->epochFinished(result.epochs.back());
    return result;
}

} // namespace gpumem::models
