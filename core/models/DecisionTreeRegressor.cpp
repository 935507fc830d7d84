// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/DecisionTreeRegressor.h"

#include "models/FitProgress.h"
#include "models/TreeGrowth.h"

#include <limits>

namespace gpumem::models {

Hyperparameters decisionTreeHyperparameters()
{
    return Hyperparameters(treeGrowthSpecs(0, 1.0));
}

training::TrainingResult DecisionTreeRegressor::fitMatrix(const Eigen::MatrixXd &features,
                                                          const Eigen::VectorXd &target,
                                                          training::TrainingObserver *observer,
                                                          runtime::OperationControl *control)
{
    if (stopRequested(control))
        return cancelledFit(0, 1, "trees");
    std::vector<Eigen::Index> samples(static_cast<std::size_t>(features.rows()));
    for (std::size_t row = 0; row < samples.size(); ++row)
        samples[row] = static_cast<Eigen::Index>(row);
    mTree.fit(features, target, samples, std::vector<double>(samples.size(), 1.0),
              treeGrowthOptions(hyperparameters(), features.cols(), compute().seed));
    return singleStepFit(std::numeric_limits<double>::quiet_NaN(), observer);
}

Eigen::VectorXd DecisionTreeRegressor::predictMatrix(const Eigen::MatrixXd &features) const
{
    return mTree.predict(features);
}

io::Json DecisionTreeRegressor::fittedState(const std::string &) const
{
    return mTree;
}

void DecisionTreeRegressor::readFitted(const io::Json &fitted, const io::Json &, const std::string &)
{
    mTree = RegressionTree::read(fitted);
}

} // namespace gpumem::models
