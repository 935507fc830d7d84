// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/NetworkModelName.h"
#include "runs/SweepPlan.h"
#include "workflows/TrainWorkflow.h"

#include <cstddef>
#include <string>
#include <vector>

namespace gpumem::workflows {

// What a sweep trains: one run per trial, each with its own values and
// otherwise the same model, compute settings and hold-out.
struct SweepConfiguration
{
    std::string namePrefix = "trial "; // a run is named namePrefix and its trial's index
    std::string model = models::kNetworkModelName;
    std::vector<runs::SweepTrial> trials;
    std::vector<models::Hyperparameters> values; // each trial's, as trialValues gives them
    models::ComputeSettings compute;
    double holdOutFraction = 0.2; // the rows each run is scored on
};

// Hears a sweep's trials start and end, on the sweep's thread.
class SweepObserver
{
  public:
    virtual ~SweepObserver() = default;
    // The observer of trial's training (a terminal's progress bar, the workbench's
    // bridge), or null.
    virtual training::TrainingObserver *trialStarting(const runs::SweepTrial & /*trial*/) { return nullptr; }
    // trial has trained: its record, and its model when the fit succeeded.
    virtual void trialFinished(const runs::SweepTrial &trial, TrainResult &run) = 0;
};

// Returns each trial's values: base with the trial's assignments, each checked by
// creating the model, so that a bad value is refused before the first run trains.
// Throws io::InputError naming the trial.
std::vector<models::Hyperparameters> trialValues(const std::vector<runs::SweepTrial> &trials,
                                                 const models::Hyperparameters &base, const std::string &model,
                                                 const models::ComputeSettings &compute);

// Trains configuration's trials in order (workflows::train), telling observer as
// each starts and ends. Stops at a cancel of control: before the next trial, or
// within a fit, whose run is then not reported. Returns the trials finished.
std::size_t sweep(const data::Dataset &dataset, const SweepConfiguration &configuration, SweepObserver &observer,
                  runtime::OperationControl *control = nullptr);

} // namespace gpumem::workflows
