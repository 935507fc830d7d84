// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/NetworkModelName.h"
#include "runs/SweepPlan.h"
#include "workflows/TrainWorkflow.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::workflows {

// What a sweep trains: one run per trial of a plan (or of one shard of it), each
// with its own values on top of the same base values, model, compute settings and
// hold-out; and the JSON Lines file its runs are written to, if any.
struct SweepConfiguration
{
    std::string namePrefix = "trial "; // a run is named namePrefix and its trial's index
    std::string model = models::kNetworkModelName;
    runs::SweepPlan plan;
    models::Hyperparameters base; // the values every trial starts from
    // Run only the trials whose index leaves remainder shard when divided by shards.
    std::size_t shard = 0;
    std::size_t shards = 1;
    models::ComputeSettings compute;
    double holdOutFraction = 0.2; // the rows each run is scored on
    // The sweep's JSON Lines file (runs/SweepRecords.h): replaced when the first run
    // has finished, then one line appended per run (io::AppendingFileWriter). None:
    // the runs are only reported.
    std::optional<std::string> outputFile;
    // Write 0 as each run's seconds, so that the file depends only on the data, values and seeds.
    bool reproducible = false;

    // Throws io::InputError, naming the parameter, for a shard outside its count or a
    // hold-out share outside [0, 1). sweepTrials calls it before expanding the plan.
    void validate() const;
};

// The trials a sweep's configuration runs, checked.
struct SweepTrials
{
    std::size_t planned = 0;                     // the trials of the whole plan
    std::vector<runs::SweepTrial> trials;        // those of the configuration's shard, in order
    std::vector<models::Hyperparameters> values; // each trial's, base with its assignments
};

// Expands configuration's plan (runs::expandSweep), takes its shard
// (runs::sweepShard) and checks every trial's values by creating the model, so
// that a bad value is refused before the first run trains. Throws io::InputError
// naming the trial.
SweepTrials sweepTrials(const SweepConfiguration &configuration);

// Hears a sweep's trials start and end, on the sweep's thread.
class SweepObserver
{
  public:
    virtual ~SweepObserver() = default;
    // The observer of trial's training (a terminal's progress bar, the workbench's
    // bridge), or null.
    virtual training::TrainingObserver *trialStarting(const runs::SweepTrial & /*trial*/) { return nullptr; }
    // trial has trained (and its line is written): its record, and its model when the fit succeeded.
    virtual void trialFinished(const runs::SweepTrial &trial, TrainResult &run) = 0;
};

// A finished (or cancelled) sweep.
struct SweepResult
{
    std::size_t planned = 0;           // the trials of the whole plan
    std::size_t trials = 0;            // the trials of this shard
    std::vector<runs::RunRecord> runs; // the runs finished, in trial order
    std::optional<std::size_t> best;   // the run of the lowest RMSE (runs::lowestRmse)
    std::string identity;              // what names the sweep in its file (sweepIdentity); empty without one
};

// The text that names a sweep, so that a merge refuses the shards of another
// one: the plan and model in words, and as a digest the data file
// (dataset.source(), io::sha256File), its target and input columns, the base
// values, the hold-out, the seed and whether durations are written.
std::string sweepIdentity(const data::Dataset &dataset, const SweepConfiguration &configuration);

// Trains configuration's trials (sweepTrials) in order (workflows::train),
// telling observer as each starts and ends and, with an output file, writing the
// sweep's header and each run's line; a shard without trials still writes the
// header. Stops at a cancel of control: before the next trial, or within a fit,
// whose run is then neither written nor reported. Sets its compute threads from
// configuration.compute. Throws io::InputError for unusable values or an output
// that cannot be written.
SweepResult sweep(const data::Dataset &dataset, const SweepConfiguration &configuration, SweepObserver &observer,
                  runtime::OperationControl *control = nullptr);

} // namespace gpumem::workflows
