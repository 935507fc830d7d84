#include "models/TabularRegressor.h"

#include "io/InputError.h"
#include "models/ModelFolder.h"

#include <chrono>

namespace gpumem::models {

TabularRegressor::TabularRegressor(Hyperparameters hyperparameters, ComputeSettings compute)
    : mHyperparameters(std::move(hyperparameters))
    , mCompute(std::move(compute))
{
}

training::TrainingResult TabularRegressor::fit(const data::Dataset &dataset,
                                               const std::vector<Eigen::Index> &trainingRows,
                                               training::TrainingObserver *observer, training::TrainingControl *control)
{
    if (!dataset.hasTarget())
        throw io::InputError("the data has no target column to learn from");
    if (trainingRows.empty())
        throw io::InputError("no training rows to learn from");
    const auto start = std::chrono::steady_clock::now();
    mFitted = false;
    mEncoder = data::FeatureEncoder();
    mEncoder.fit(dataset, trainingRows);
    mSchema = {dataset.targetName(), mEncoder.encoding()};

    const Eigen::MatrixXd encoded = mEncoder.transform(dataset);
    const Eigen::MatrixXd features = encoded(trainingRows, Eigen::all);
    const Eigen::VectorXd target = dataset.target()(trainingRows);
    training::TrainingResult result = fitMatrix(features, target, observer, control);
    mFitted = result.stopReason != training::StopReason::Cancelled;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

Eigen::VectorXd TabularRegressor::predict(const data::Dataset &dataset) const
{
    if (!mFitted)
        throw io::InputError("the " + name() + " model has not been trained");
    return predictMatrix(mEncoder.transform(dataset));
}

void TabularRegressor::save(const std::string &directory) const
{
    if (!mFitted)
        throw io::InputError("the " + name() + " model has not been trained");
    writeModelFolder(directory, name(), mHyperparameters, mCompute.seed, mSchema,
                     [this](io::JsonWriter &json, const std::string &folder) { writeFitted(json, folder); });
}

void TabularRegressor::restore(const io::JsonValue &metadata, const std::string &directory)
{
    readModelFolder(metadata, directory, mHyperparameters, mCompute.seed, mSchema,
                    [this, &directory](const io::JsonValue &fitted) {
                        mEncoder = data::FeatureEncoder(mSchema.encoding);
                        readFitted(fitted, directory);
                    });
    mFitted = true;
}

} // namespace gpumem::models
