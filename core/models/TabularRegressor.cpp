// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/TabularRegressor.h"

#include "io/InputError.h"
#include "models/ModelFolder.h"

#include <chrono>

namespace gpumem::models {

TabularRegressor::TabularRegressor(Hyperparameters hyperparameters, ComputeSettings compute)
    : RegressorBase(std::move(hyperparameters), std::move(compute))
{
}

training::TrainingResult TabularRegressor::fit(const data::Dataset &dataset,
                                               const std::vector<Eigen::Index> &trainingRows,
                                               training::TrainingObserver *observer, runtime::OperationControl *control)
{
    requireTrainingData(dataset, trainingRows);
    const auto start = std::chrono::steady_clock::now();
    setFitted(false);
    mEncoder = data::FeatureEncoder();
    mEncoder.fit(dataset, trainingRows);
    setSchema({dataset.targetName(), mEncoder.encoding()});

    const Eigen::MatrixXd encoded = mEncoder.transform(dataset);
    const Eigen::MatrixXd features = encoded(trainingRows, Eigen::all);
    const Eigen::VectorXd target = dataset.target()(trainingRows);
    training::TrainingResult result = fitMatrix(features, target, observer, control);
    setFitted(result.stopReason != training::StopReason::Cancelled);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

Eigen::VectorXd TabularRegressor::predict(const data::Dataset &dataset) const
{
    requireFitted();
    return predictMatrix(mEncoder.transform(dataset));
}

void TabularRegressor::schemaRestored()
{
    mEncoder = data::FeatureEncoder(schema().encoding);
}

} // namespace gpumem::models
