// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/RandomForestRegressor.h"

#include "data/SeededRandom.h"
#include "models/FitProgress.h"
#include "models/HyperparameterSpecs.h"
#include "models/TreeGrowth.h"
#include "runtime/ParallelFor.h"
#include "runtime/Stopwatch.h"

#include <algorithm>
#include <limits>
#include <mutex>

namespace gpumem::models {

namespace {

// splitmix64's finaliser: neighbouring tree indices give unrelated seeds.
std::uint64_t mixedSeed(std::uint64_t seed, std::uint64_t index)
{
    std::uint64_t value = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
    value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
    value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
    return value ^ (value >> 31);
}

} // namespace

Hyperparameters randomForestHyperparameters()
{
    std::vector<HyperparameterSpec> specs = {
        integerSpec("n_estimators", 100, 1, 100000, "trees", "Number of trees whose mean is the prediction."),
        booleanSpec("bootstrap", true,
                    "Grow each tree on as many rows drawn with replacement; off grows every tree on all rows."),
    };
    for (HyperparameterSpec &spec : treeGrowthSpecs(0, 1.0))
        specs.push_back(std::move(spec));
    return Hyperparameters(std::move(specs));
}

RegressionTree RandomForestRegressor::growTree(const Eigen::MatrixXd &features, const Eigen::VectorXd &target,
                                               int index) const
{
    const auto rows = static_cast<std::size_t>(features.rows());
    data::SeededRandom random(mixedSeed(compute().seed, static_cast<std::uint64_t>(index)));
    // A bootstrap sample is kept as a count per row, used as the row's weight,
    // which is how scikit-learn grows its forest trees too.
    std::vector<double> counts(rows, 1.0);
    if (hyperparameters().boolean("bootstrap")) {
        std::fill(counts.begin(), counts.end(), 0.0);
        for (std::size_t draw = 0; draw < rows; ++draw)
            counts[random.below(rows)] += 1.0;
    }
    std::vector<Eigen::Index> samples;
    std::vector<double> weights;
    for (std::size_t row = 0; row < rows; ++row) {
        if (counts[row] > 0.0) {
            samples.push_back(static_cast<Eigen::Index>(row));
            weights.push_back(counts[row]);
        }
    }
    RegressionTree tree;
    tree.fit(features, target, samples, weights, treeGrowthOptions(hyperparameters(), features.cols(), random.next()));
    return tree;
}

training::TrainingResult RandomForestRegressor::fitMatrix(const Eigen::MatrixXd &features,
                                                          const Eigen::VectorXd &target,
                                                          training::TrainingObserver *observer,
                                                          runtime::OperationControl *control)
{
    const int treeCount = static_cast<int>(hyperparameters().integer("n_estimators"));
    const runtime::Stopwatch time;
    std::vector<RegressionTree> trees(static_cast<std::size_t>(treeCount));

    // Each tree has its own seed, so the result does not depend on the number
    // of workers; the report after each tree is serialised, so observers hear
    // one call at a time, counting trees in the order they finish.
    std::mutex reportMutex;
    int reported = 0; // guarded by reportMutex
    training::TrainingResult result;
    const auto growAndReport = [&](std::size_t index) {
        trees[index] = growTree(features, target, static_cast<int>(index));
        const std::lock_guard lock(reportMutex);
        const training::EpochProgress progress =
            stepProgress(++reported, treeCount, std::numeric_limits<double>::quiet_NaN(), time);
        result.epochs.push_back(progress);
        if (observer)
            observer->epochFinished(progress);
    };
    runtime::parallelFor(static_cast<std::size_t>(treeCount), compute().threads, growAndReport,
                         [&] { return stopRequested(control); });
    if (reported < treeCount) {
        training::TrainingResult cancelled = cancelledFit(reported, treeCount, "trees");
        cancelled.epochs = std::move(result.epochs);
        return cancelled;
    }
    mTrees = std::move(trees);
    result.bestEpoch = treeCount;
    return result;
}

Eigen::VectorXd RandomForestRegressor::predictMatrix(const Eigen::MatrixXd &features) const
{
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(features.rows());
    for (const RegressionTree &tree : mTrees)
        sum += tree.predict(features);
    return sum / static_cast<double>(mTrees.size());
}

io::Json RandomForestRegressor::fittedState(const std::string &) const
{
    return {{"trees", mTrees}};
}

void RandomForestRegressor::readFitted(const io::Json &fitted, const io::Json &, const std::string &)
{
    mTrees = readTrees(io::member(fitted, "trees"));
}

} // namespace gpumem::models
