// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/SweepWorkflow.h"

#include "io/InputError.h"
#include "models/RegressorRegistry.h"

namespace gpumem::workflows {

std::vector<models::Hyperparameters> trialValues(const std::vector<runs::SweepTrial> &trials,
                                                 const models::Hyperparameters &base, const std::string &model,
                                                 const models::ComputeSettings &compute)
{
    std::vector<models::Hyperparameters> values;
    for (const auto &trial : trials) {
        models::Hyperparameters trialValues = base;
        try {
            for (const auto &[name, value] : trial.assignments)
                trialValues.setFromText(name, value);
            models::createRegressor(model, trialValues, compute);
        } catch (const io::InputError &error) {
            throw io::InputError("trial " + std::to_string(trial.index) + " (" + runs::assignmentsText(trial) +
                                 "): " + error.message());
        }
        values.push_back(std::move(trialValues));
    }
    return values;
}

std::size_t sweep(const data::Dataset &dataset, const SweepConfiguration &configuration, SweepObserver &observer,
                  runtime::OperationControl *control)
{
    std::size_t finished = 0;
    for (std::size_t position = 0; position < configuration.trials.size(); ++position) {
        if (control && control->isCancelled())
            break;
        const runs::SweepTrial &trial = configuration.trials[position];
        TrainConfiguration run;
        run.name = configuration.namePrefix + std::to_string(trial.index);
        run.model = configuration.model;
        run.hyperparameters = configuration.values[position];
        run.compute = configuration.compute;
        run.holdOutFraction = configuration.holdOutFraction;
        TrainResult trained = train(dataset, run, observer.trialStarting(trial), control);
        if (trained.record.stopReason == training::StopReason::Cancelled)
            break;
        ++finished;
        observer.trialFinished(trial, trained);
    }
    return finished;
}

} // namespace gpumem::workflows
