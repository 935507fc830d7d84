// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/TabularRegressor.h"

#include "io/InputError.h"
#include "models/ModelFolder.h"

namespace gpumem::models {

TabularRegressor::TabularRegressor(Hyperparameters hyperparameters, ComputeSettings compute)
    : RegressorBase(std::move(hyperparameters), std::move(compute))
{
}

training::TrainingResult TabularRegressor::fitRows(const data::Dataset &dataset,
                                                   const std::vector<Eigen::Index> &trainingRows,
                                                   training::TrainingObserver *observer,
                                                   runtime::OperationControl *control)
{
    mEncoder = data::FeatureEncoder();
    mEncoder.fit(dataset, trainingRows);
    setSchema({dataset.targetName(), mEncoder.encoding()});

    const Eigen::MatrixXd encoded = mEncoder.transform(dataset);
    const Eigen::MatrixXd features = encoded(trainingRows, Eigen::all);
    const Eigen::VectorXd target = dataset.target()(trainingRows);
    return fitMatrix(features, target, observer, control);
}

Eigen::VectorXd TabularRegressor::predictFitted(const data::Dataset &dataset) const
{
    return predictMatrix(mEncoder.transform(dataset));
}

void TabularRegressor::schemaRestored()
{
    mEncoder = data::FeatureEncoder(schema().encoding);
}

} // namespace gpumem::models
