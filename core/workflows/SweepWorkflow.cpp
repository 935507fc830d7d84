// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/SweepWorkflow.h"

#include "io/AppendingFileWriter.h"
#include "io/InputError.h"
#include "io/Sha256.h"
#include "models/RegressorRegistry.h"
#include "runs/SweepRecords.h"
#include "runtime/ThreadSettings.h"
#include "workflows/ConfigurationChecks.h"

#include <memory>

namespace gpumem::workflows {

namespace {

// Each trial's values: base with the trial's assignments, checked by creating the model.
std::vector<models::Hyperparameters> trialValues(const std::vector<runs::SweepTrial> &trials,
                                                 const SweepConfiguration &configuration)
{
    std::vector<models::Hyperparameters> values;
    for (const auto &trial : trials) {
        models::Hyperparameters trialValues = configuration.base;
        try {
            for (const auto &[name, value] : trial.assignments)
                trialValues.setFromText(name, value);
            models::createRegressor(configuration.model, trialValues, configuration.compute);
        } catch (const io::InputError &error) {
            throw io::InputError("trial " + std::to_string(trial.index) + " (" + runs::assignmentsText(trial) +
                                 "): " + error.markedMessage());
        }
        values.push_back(std::move(trialValues));
    }
    return values;
}

// Writes a sweep's file as its runs finish: the header with the first run, so
// that an earlier file is replaced only then.
class SweepFileWriter
{
  public:
    SweepFileWriter(const std::string &path, runs::SweepHeader header)
        : mHeader(std::move(header))
        , mOutput(path)
    {
    }

    void write(const runs::SweepTrial &trial, const runs::RunRecord &run)
    {
        const std::string line = runs::sweepLine(mHeader, trial, run);
        mOutput.append(mOutput.size() == 0 ? runs::sweepHeaderLine(mHeader) + line : line);
    }

    // A shard with no trial of its own still says which sweep it belongs to.
    void finish()
    {
        if (mOutput.size() == 0)
            mOutput.append(runs::sweepHeaderLine(mHeader));
        mOutput.finish();
    }

  private:
    runs::SweepHeader mHeader;
    io::AppendingFileWriter mOutput;
};

} // namespace

void SweepConfiguration::validate() const
{
    if (shards == 0 || shard >= shards)
        throw io::InputError(io::parameter("shard", "I/N") + " needs 0 <= I < N, not " + std::to_string(shard) + "/" +
                             std::to_string(shards));
    checkHoldOutFraction(holdOutFraction);
}

SweepTrials sweepTrials(const SweepConfiguration &configuration)
{
    configuration.validate();
    SweepTrials checked;
    const std::vector<runs::SweepTrial> trials = runs::expandSweep(configuration.plan);
    checked.planned = trials.size();
    checked.trials = runs::sweepShard(trials, configuration.shard, configuration.shards);
    checked.values = trialValues(checked.trials, configuration);
    return checked;
}

std::string sweepIdentity(const data::Dataset &dataset, const SweepConfiguration &configuration)
{
    // Hashed into the header's fixed-size id, so the grid's values cost nothing per line.
    std::string shared = io::sha256File(dataset.source()) + '\n' + dataset.targetName() + '\n';
    for (const auto &name : dataset.numericFeatureNames())
        shared += name + ',';
    shared += '\n' + dataset.sequenceName();
    for (const auto &spec : configuration.base.specs())
        shared += '\n' + configuration.base.text(spec.name);
    shared += "\n" + std::to_string(configuration.holdOutFraction) + "\n" + std::to_string(configuration.compute.seed) +
              (configuration.reproducible ? "\nreproducible" : "");
    return runs::sweepDescription(configuration.plan) + "; model " + configuration.model + "; settings " +
           io::sha256Hex(shared).substr(0, 16);
}

SweepResult sweep(const data::Dataset &dataset, const SweepConfiguration &configuration, SweepObserver &observer,
                  runtime::OperationControl *control)
{
    runtime::setComputeThreads(configuration.compute.threads);
    const SweepTrials checked = sweepTrials(configuration);
    SweepResult result;
    result.planned = checked.planned;
    result.trials = checked.trials.size();
    std::unique_ptr<SweepFileWriter> file;
    if (configuration.outputFile) {
        result.identity = sweepIdentity(dataset, configuration);
        file = std::make_unique<SweepFileWriter>(
            *configuration.outputFile,
            runs::sweepHeader(result.identity, configuration.plan, configuration.model, checked.planned));
    }
    for (std::size_t position = 0; position < checked.trials.size(); ++position) {
        if (control && control->isCancelled())
            break;
        const runs::SweepTrial &trial = checked.trials[position];
        TrainConfiguration run;
        run.name = configuration.namePrefix + std::to_string(trial.index);
        run.model = configuration.model;
        run.hyperparameters = checked.values[position];
        run.compute = configuration.compute;
        run.holdOutFraction = configuration.holdOutFraction;
        TrainResult trained = train(dataset, run, observer.trialStarting(trial), control);
        if (trained.record.stopReason == training::StopReason::Cancelled)
            break;
        if (configuration.reproducible)
            trained.record.seconds = 0.0;
        if (file)
            file->write(trial, trained.record);
        result.runs.push_back(trained.record);
        observer.trialFinished(trial, trained);
    }
    if (file)
        file->finish();
    result.best = runs::lowestRmse(result.runs);
    return result;
}

} // namespace gpumem::workflows
