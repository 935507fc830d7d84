// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/RegressorBase.h"

#include "io/InputError.h"
#include "models/ModelFolder.h"

namespace gpumem::models {

void throwNotTrained(const std::string &model)
{
    throw io::InputError("the " + model + " model has not been trained");
}

void requireTrainingData(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows)
{
    if (!dataset.hasTarget())
        throw io::InputError("the data has no target column to learn from");
    if (trainingRows.empty())
        throw io::InputError("no training rows to learn from");
}

RegressorBase::RegressorBase(Hyperparameters hyperparameters, ComputeSettings compute)
    : mHyperparameters(std::move(hyperparameters))
    , mCompute(std::move(compute))
{
}

void RegressorBase::requireFitted() const
{
    if (!mFitted)
        throwNotTrained(name());
}

void RegressorBase::save(const std::string &directory) const
{
    requireFitted();
    writeModelFolder(directory, name(), mHyperparameters, mCompute.seed, mSchema,
                     [this](io::JsonWriter &json, const std::string &folder) { writeFitted(json, folder); });
}

void RegressorBase::restore(const io::Json &metadata, const std::string &directory)
{
    mFitted = false;
    readModelFolder(metadata, directory, mHyperparameters, mCompute.seed, mSchema,
                    [this, &directory](const io::Json &fitted) {
                        schemaRestored();
                        readFitted(fitted, directory);
                    });
    mFitted = true;
}

} // namespace gpumem::models
