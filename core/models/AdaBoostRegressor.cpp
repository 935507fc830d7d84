// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/AdaBoostRegressor.h"

#include "data/SeededRandom.h"
#include "io/InputError.h"
#include "models/AdaBoostR2.h"
#include "models/FitProgress.h"
#include "models/HyperparameterSpecs.h"
#include "models/TreeGrowth.h"
#include "runtime/Stopwatch.h"

#include <cmath>
#include <limits>

namespace gpumem::models {

Hyperparameters adaBoostHyperparameters()
{
    std::vector<HyperparameterSpec> specs = {
        integerSpec("n_estimators", 50, 1, 100000, "trees", "Most boosting rounds, one tree each."),
        realSpec("learning_rate", 1.0, 1e-6, 100.0, "", "Scales each tree's weight and each weight update."),
        choiceSpec("loss", "linear", {"linear", "square", "exponential"},
                   "How a row's error, relative to the round's largest, counts: as it is, squared, or "
                   "1 - exp(-error)."),
    };
    for (HyperparameterSpec &spec : treeGrowthSpecs(3, 1.0))
        specs.push_back(std::move(spec));
    return Hyperparameters(std::move(specs));
}

training::TrainingResult AdaBoostRegressor::fitMatrix(const Eigen::MatrixXd &features, const Eigen::VectorXd &target,
                                                      training::TrainingObserver *observer,
                                                      runtime::OperationControl *control)
{
    const int rounds = static_cast<int>(hyperparameters().integer("n_estimators"));
    const double learningRate = hyperparameters().real("learning_rate");
    const AdaBoostLoss loss = parseAdaBoostLoss(hyperparameters().choice("loss"));
    const runtime::Stopwatch time;
    data::SeededRandom random(compute().seed);
    const Eigen::Index rows = features.rows();
    Eigen::VectorXd sampleWeights = Eigen::VectorXd::Constant(rows, 1.0 / static_cast<double>(rows));
    const std::vector<double> unitWeights(static_cast<std::size_t>(rows), 1.0);

    training::TrainingResult result;
    std::vector<RegressionTree> trees;
    std::vector<double> treeWeights;
    for (int round = 0; round < rounds; ++round) {
        if (stopRequested(control))
            return cancelledFit(round, rounds, "rounds");
        const std::vector<Eigen::Index> resample = weightedResample(sampleWeights, random);
        RegressionTree tree;
        tree.fit(features, target, resample, unitWeights,
                 treeGrowthOptions(hyperparameters(), features.cols(), random.next()));
        const Eigen::VectorXd errors = (tree.predict(features) - target).cwiseAbs();
        const AdaBoostRoundResult scored = adaBoostRound(errors, sampleWeights, loss, learningRate, round + 1 < rounds);
        if (scored.tooWeak) {
            // scikit-learn keeps a too-weak first tree (with weight 0) so that the model can still predict.
            if (trees.empty()) {
                trees.push_back(std::move(tree));
                treeWeights.push_back(0.0);
            }
            result.stopReason = training::StopReason::EarlyStopped;
            result.message = "stopped after " + std::to_string(trees.size()) +
                             " rounds: a tree's weighted loss reached 0.5, no better than chance";
            break;
        }
        trees.push_back(std::move(tree));
        treeWeights.push_back(scored.estimatorWeight);

        result.epochs.push_back(stepProgress(round + 1, rounds, std::numeric_limits<double>::quiet_NaN(), time));
        if (observer)
            observer->epochFinished(result.epochs.back());

        if (scored.perfect) {
            result.stopReason = training::StopReason::EarlyStopped;
            result.message = "stopped after " + std::to_string(trees.size()) + " rounds: a tree fits every row";
            break;
        }
        const double total = sampleWeights.sum();
        if (!std::isfinite(total) || total <= 0.0) {
            result.stopReason = training::StopReason::EarlyStopped;
            result.message = "stopped after " + std::to_string(trees.size()) + " rounds: the sample weights vanished";
            break;
        }
        sampleWeights /= total;
    }
    if (!result.epochs.empty())
        result.epochs.back().best = true;
    result.bestEpoch = static_cast<int>(result.epochs.size());
    mTrees = std::move(trees);
    mTreeWeights = std::move(treeWeights);
    return result;
}

Eigen::VectorXd AdaBoostRegressor::predictMatrix(const Eigen::MatrixXd &features) const
{
    std::vector<Eigen::VectorXd> treePredictions;
    for (const RegressionTree &tree : mTrees)
        treePredictions.push_back(tree.predict(features));
    Eigen::VectorXd predictions(features.rows());
    std::vector<double> values(mTrees.size());
    for (Eigen::Index row = 0; row < features.rows(); ++row) {
        for (std::size_t tree = 0; tree < mTrees.size(); ++tree)
            values[tree] = treePredictions[tree](row);
        predictions(row) = weightedMedian(values, mTreeWeights);
    }
    return predictions;
}

io::Json AdaBoostRegressor::fittedState(const std::string &) const
{
    return {{"weights", mTreeWeights}, {"trees", mTrees}};
}

void AdaBoostRegressor::readFitted(const io::Json &fitted, const io::Json &, const std::string &)
{
    std::vector<double> weights;
    for (const io::Json &weight : io::toArray(io::member(fitted, "weights"))) {
        weights.push_back(io::toNumber(weight));
        if (!std::isfinite(weights.back()) || weights.back() < 0.0)
            throw io::InputError("AdaBoost tree weights must be finite and non-negative");
    }
    std::vector<RegressionTree> trees = readTrees(io::member(fitted, "trees"));
    if (trees.size() != weights.size())
        throw io::InputError("AdaBoost needs one weight per tree");
    mTrees = std::move(trees);
    mTreeWeights = std::move(weights);
}

} // namespace gpumem::models
