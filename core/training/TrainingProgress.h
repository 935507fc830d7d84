// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"

#include <Eigen/Core>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gpumem::training {

// Reported after every optimisation step. Losses are on the model's scaled target.
struct BatchProgress
{
    int epoch = 0; // 1-based
    int epochs = 0;
    std::int64_t batch = 0;   // 1-based within the epoch
    std::int64_t batches = 0; // per epoch
    double trainLoss = 0.0;   // this batch's mean loss
    double learningRate = 0.0;
    double samplesPerSecond = 0.0;
    double elapsedSeconds = 0.0;
    double remainingSeconds = 0.0; // estimate
};

// The most training rows whose RMSE an epoch reports (EpochProgress::trainRmse): an even
// sample of larger sets bounds the cost of that extra pass to a few batches' forward passes.
inline constexpr std::size_t maxTrainingRmseRows = 512;

// Reported after every epoch.
struct EpochProgress
{
    int epoch = 0; // 1-based
    int epochs = 0;
    double trainLoss = 0.0;       // mean over the epoch's rows
    double validationLoss = -1.0; // negative when there is no validation split
    // The validation rows' RMSE in the target's units (MiB), which people read; NaN
    // when there is no validation split or the model does not compute it.
    double validationRmse = std::numeric_limits<double>::quiet_NaN();
    // The training rows' RMSE in the target's units (MiB) after the epoch, from
    // predictions in evaluation mode as validationRmse (on an even sample of at most
    // maxTrainingRmseRows of them), so that both curves share one axis; NaN when the
    // model does not compute it.
    double trainRmse = std::numeric_limits<double>::quiet_NaN();
    double learningRate = 0.0; // at the end of the epoch
    double samplesPerSecond = 0.0;
    double elapsedSeconds = 0.0;
    double remainingSeconds = 0.0;
    bool best = false; // the best validation loss so far (or the last epoch without validation)
};

// Receives progress from the training thread: every batch and epoch, and (from
// the code that drives a fit, see FitProgressRelay) the share of it done as
// progressChanged. Implementations must be quick and must not block; the
// workbench forwards them to the GUI thread as queued signals.
class TrainingObserver : public virtual runtime::ProgressObserver
{
  public:
    virtual void batchFinished(const BatchProgress &) {}
    virtual void epochFinished(const EpochProgress &) {}
    // One network of an ensemble (member counts from 0) finished an epoch; epochFinished
    // reports the members' mean once every member has run that epoch. Only for an
    // ensemble of more than one network; observers that pass events on forward it too.
    virtual void memberEpochFinished(int /*member*/, const EpochProgress &) {}
};

// The share (0..1) of a fit done after this batch: batches done out of epochs × batches.
double fitShare(const BatchProgress &progress);
// The share (0..1) of a fit done after this epoch (or tree, or boosting round).
double fitShare(const EpochProgress &progress);

// Training is paused, resumed and cancelled through the control every long
// operation shares; it checks it before every batch, so requests take effect
// within one batch.
using OperationControl = runtime::OperationControl;

// How a training ended.
enum class StopReason
{
    Completed,    // every epoch ran
    EarlyStopped, // no validation improvement for `patience` epochs
    Cancelled,    // OperationControl::cancel()
    NotFinite,    // a loss became NaN or infinite
};

std::string stopReasonName(StopReason reason);

// What a training run produced besides the weights.
struct TrainingResult
{
    StopReason stopReason = StopReason::Completed;
    std::string message; // one line for the user, e.g. why it stopped
    std::vector<EpochProgress> epochs;
    int bestEpoch = 0; // the epoch whose weights the model holds (1-based; 0 if none)
    double seconds = 0.0;
    std::vector<std::string> warnings;
    // The rows the fit set aside to judge its epochs (the network's validation_fraction,
    // drawn from the rows it was given); empty for a model that fits on every row.
    std::vector<Eigen::Index> validationRows;
};

} // namespace gpumem::training
