// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/RegressorBase.h"

#include "io/InputError.h"
#include "models/ModelFolder.h"
#include "runtime/Stopwatch.h"

namespace gpumem::models {

void throwNotTrained(const std::string &model)
{
    throw io::InputError("the " + model + " model has not been trained");
}

void requireTrainingData(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows,
                         std::size_t minimumRows)
{
    if (!dataset.hasTarget())
        throw io::InputError("the data has no target column to learn from");
    if (trainingRows.empty())
        throw io::InputError("no training rows to learn from");
    if (trainingRows.size() < minimumRows)
        throw io::InputError("too few training rows to learn from: " + std::to_string(trainingRows.size()) +
                             ", where at least " + std::to_string(minimumRows) + " are needed");
}

RegressorBase::RegressorBase(Hyperparameters hyperparameters, ComputeSettings compute)
    : mHyperparameters(std::move(hyperparameters))
    , mCompute(std::move(compute))
{
}

training::TrainingResult RegressorBase::fit(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows,
                                            training::TrainingObserver *observer, runtime::OperationControl *control)
{
    requireTrainingData(dataset, trainingRows, minimumTrainingRows());
    const runtime::Stopwatch time;
    // A fit that throws leaves the model unfitted: it may have learned half of something.
    mFitted = false;
    training::TrainingResult result = fitRows(dataset, trainingRows, observer, control);
    mFitted = result.stopReason != training::StopReason::Cancelled || keepsCancelledFit();
    // Models that time themselves (the network leaves out paused time) keep their measure.
    if (result.seconds == 0.0)
        result.seconds = time.seconds();
    return result;
}

Eigen::VectorXd RegressorBase::predict(const data::Dataset &dataset) const
{
    requireFitted();
    return predictFitted(dataset);
}

void RegressorBase::requireFitted() const
{
    if (!mFitted)
        throwNotTrained(name());
}

void RegressorBase::save(const std::string &directory, const io::Json &extraMembers) const
{
    requireFitted();
    writeModelFolder(
        directory, name(), mHyperparameters, mCompute.seed, mSchema,
        [this](const std::string &folder) { return fittedState(folder); }, extraMembers);
}

void RegressorBase::restore(const io::Json &metadata, const std::string &directory)
{
    mFitted = false;
    if (modelNameOf(metadata) != name())
        throw io::InputError(directory + "/model.json", 0, 0,
                             "the folder holds a '" + modelNameOf(metadata) + "' model, not " + name());
    readModelFolder(metadata, directory, mHyperparameters, mCompute.seed, mSchema,
                    [this, &metadata, &directory](const io::Json &fitted) {
                        schemaRestored();
                        readFitted(fitted, metadata, directory);
                    });
    mFitted = true;
}

} // namespace gpumem::models
