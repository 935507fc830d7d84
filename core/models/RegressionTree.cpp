// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/RegressionTree.h"

#include "data/SeededRandom.h"
#include "io/InputError.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace gpumem::models {

namespace {

// Values closer than this count as equal, so no threshold falls between two
// values that differ only by rounding (scikit-learn uses the same margin).
constexpr double kFeatureTolerance = 1e-7;

// Grows one tree depth-first. Every feature keeps the samples of the tree in
// its own sorted order; the samples of a node occupy the same range [begin,
// end) in each order, and a split partitions that range stably in each, so the
// ranges of the children stay sorted without sorting again.
class TreeBuilder
{
  public:
    TreeBuilder(const Eigen::MatrixXd &features, const Eigen::VectorXd &target,
                const std::vector<Eigen::Index> &samples, const std::vector<double> &weights,
                const RegressionTreeOptions &options)
        : mFeatures(features)
        , mOptions(options)
        , mRandom(options.seed)
    {
        for (std::size_t index = 0; index < samples.size(); ++index) {
            // Weightless samples cannot move a weighted mean or error, so they are left out.
            if (!(weights[index] > 0.0))
                continue;
            mRows.push_back(samples[index]);
            mWeights.push_back(weights[index]);
            mTargets.push_back(target(samples[index]));
        }
        mSampleCount = static_cast<int>(mRows.size());
        mFeatureCount = static_cast<int>(features.cols());
        // At least one order exists, so that a tree without features still sees its samples.
        mOrder.resize(static_cast<std::size_t>(mSampleCount) * static_cast<std::size_t>(std::max(1, mFeatureCount)));
        std::iota(mOrder.begin(), mOrder.begin() + mSampleCount, 0);
        for (int feature = 0; feature < mFeatureCount; ++feature) {
            int *order = orderOf(feature);
            std::iota(order, order + mSampleCount, 0);
            std::stable_sort(order, order + mSampleCount,
                             [&](int a, int b) { return valueOf(a, feature) < valueOf(b, feature); });
        }
        mGoesLeft.resize(static_cast<std::size_t>(mSampleCount));
        mBuffer.resize(static_cast<std::size_t>(mSampleCount));
        mCandidates.resize(static_cast<std::size_t>(mFeatureCount));
    }

    int sampleCount() const { return mSampleCount; }

    void build(std::vector<int> &feature, std::vector<double> &threshold, std::vector<int> &left,
               std::vector<int> &right, std::vector<double> &value)
    {
        struct Pending
        {
            int begin;
            int end;
            int depth;
            int parent;
            bool isLeft;
        };
        std::vector<Pending> stack = {{0, mSampleCount, 0, -1, false}};
        while (!stack.empty()) {
            const Pending node = stack.back();
            stack.pop_back();
            const int index = static_cast<int>(value.size());
            if (node.parent >= 0)
                (node.isLeft ? left : right)[static_cast<std::size_t>(node.parent)] = index;
            const Split split = bestSplit(node.begin, node.end, node.depth);
            feature.push_back(split.feature);
            threshold.push_back(split.feature >= 0 ? split.threshold : 0.0);
            left.push_back(-1);
            right.push_back(-1);
            value.push_back(split.mean);
            if (split.feature < 0)
                continue;
            const int middle = partition(node.begin, node.end, split.feature, split.threshold);
            // The right child goes on the stack first so that the left one is numbered next (preorder).
            stack.push_back({middle, node.end, node.depth + 1, index, false});
            stack.push_back({node.begin, middle, node.depth + 1, index, true});
        }
    }

  private:
    struct Split
    {
        int feature = -1; // -1: the node stays a leaf
        double threshold = 0.0;
        double mean = 0.0;
    };

    int *orderOf(int feature) { return mOrder.data() + static_cast<std::size_t>(feature) * mSampleCount; }
    double valueOf(int sample, int feature) const
    {
        return mFeatures(mRows[static_cast<std::size_t>(sample)], feature);
    }

    Split bestSplit(int begin, int end, int depth)
    {
        Split split;
        const int count = end - begin;
        double weightSum = 0.0;
        double targetSum = 0.0;
        double lowest = std::numeric_limits<double>::infinity();
        double highest = -lowest;
        const int *anyOrder = mOrder.data();
        for (int position = begin; position < end; ++position) {
            const auto sample = static_cast<std::size_t>(anyOrder[position]);
            weightSum += mWeights[sample];
            targetSum += mWeights[sample] * mTargets[sample];
            lowest = std::min(lowest, mTargets[sample]);
            highest = std::max(highest, mTargets[sample]);
        }
        split.mean = count > 0 ? targetSum / weightSum : 0.0;
        const bool tooDeep = mOptions.maxDepth > 0 && depth >= mOptions.maxDepth;
        if (mFeatureCount == 0 || tooDeep || count < mOptions.minSamplesSplit || count < 2 * mOptions.minSamplesLeaf ||
            !(highest > lowest))
            return split;

        // Targets are taken relative to the node's mean, so the squared sums
        // below stay small and comparable across features.
        double centredTotal = 0.0;
        for (int position = begin; position < end; ++position) {
            const auto sample = static_cast<std::size_t>(anyOrder[position]);
            centredTotal += mWeights[sample] * (mTargets[sample] - split.mean);
        }

        std::iota(mCandidates.begin(), mCandidates.end(), 0);
        const bool drawFeatures = mOptions.maxFeatures > 0 && mOptions.maxFeatures < mFeatureCount;
        int usableTried = 0;
        double bestScore = -std::numeric_limits<double>::infinity();
        for (int drawn = 0; drawn < mFeatureCount; ++drawn) {
            if (drawFeatures) {
                if (usableTried >= mOptions.maxFeatures)
                    break;
                // Fisher–Yates step: a uniform choice among the features not tried yet.
                const auto pick =
                    drawn + static_cast<int>(mRandom.below(static_cast<std::uint64_t>(mFeatureCount - drawn)));
                std::swap(mCandidates[static_cast<std::size_t>(drawn)], mCandidates[static_cast<std::size_t>(pick)]);
            }
            const int feature = mCandidates[static_cast<std::size_t>(drawn)];
            const int *order = orderOf(feature);
            if (valueOf(order[end - 1], feature) <= valueOf(order[begin], feature) + kFeatureTolerance)
                continue; // constant here: it does not count towards maxFeatures, as in scikit-learn
            ++usableTried;
            double leftWeight = 0.0;
            double leftSum = 0.0;
            for (int position = begin; position + 1 < end; ++position) {
                const auto sample = static_cast<std::size_t>(order[position]);
                leftWeight += mWeights[sample];
                leftSum += mWeights[sample] * (mTargets[sample] - split.mean);
                const double here = valueOf(order[position], feature);
                const double next = valueOf(order[position + 1], feature);
                if (next <= here + kFeatureTolerance)
                    continue;
                const int leftCount = position + 1 - begin;
                if (leftCount < mOptions.minSamplesLeaf || count - leftCount < mOptions.minSamplesLeaf)
                    continue;
                const double rightWeight = weightSum - leftWeight;
                if (!(leftWeight > 0.0) || !(rightWeight > 0.0))
                    continue;
                const double rightSum = centredTotal - leftSum;
                // Maximising this is minimising the weighted squared error of the children.
                const double score = leftSum * leftSum / leftWeight + rightSum * rightSum / rightWeight;
                if (score > bestScore || (score == bestScore && feature < split.feature)) {
                    bestScore = score;
                    split.feature = feature;
                    split.threshold = here / 2.0 + next / 2.0;
                    if (!(split.threshold < next) || !std::isfinite(split.threshold))
                        split.threshold = here;
                }
            }
        }
        return split;
    }

    // Moves the samples of [begin, end) that go left to the front of the range
    // in every feature's order, keeping each side sorted; returns where the right side starts.
    int partition(int begin, int end, int feature, double threshold)
    {
        const int *order = orderOf(feature);
        int leftCount = 0;
        for (int position = begin; position < end; ++position) {
            const int sample = order[position];
            const bool goesLeft = valueOf(sample, feature) <= threshold;
            mGoesLeft[static_cast<std::size_t>(sample)] = goesLeft;
            leftCount += goesLeft ? 1 : 0;
        }
        for (int each = 0; each < mFeatureCount; ++each) {
            int *sorted = orderOf(each);
            int leftAt = begin;
            int rightAt = 0;
            for (int position = begin; position < end; ++position) {
                const int sample = sorted[position];
                if (mGoesLeft[static_cast<std::size_t>(sample)])
                    sorted[leftAt++] = sample;
                else
                    mBuffer[static_cast<std::size_t>(rightAt++)] = sample;
            }
            std::copy(mBuffer.begin(), mBuffer.begin() + rightAt, sorted + leftAt);
        }
        return begin + leftCount;
    }

    const Eigen::MatrixXd &mFeatures;
    RegressionTreeOptions mOptions;
    data::SeededRandom mRandom;
    std::vector<Eigen::Index> mRows;
    std::vector<double> mWeights;
    std::vector<double> mTargets;
    int mSampleCount = 0;
    int mFeatureCount = 0;
    std::vector<int> mOrder;
    std::vector<char> mGoesLeft;
    std::vector<int> mBuffer;
    std::vector<int> mCandidates;
};

std::vector<double> numbersOf(const io::Json &object, const char *key)
{
    std::vector<double> numbers;
    for (const io::Json &item : io::toArray(io::member(object, key))) {
        const double number = io::toNumber(item);
        if (!std::isfinite(number))
            throw io::InputError(std::string("tree array '") + key + "' holds a non-finite number");
        numbers.push_back(number);
    }
    return numbers;
}

std::vector<int> indicesOf(const io::Json &object, const char *key)
{
    std::vector<int> indices;
    for (const double number : numbersOf(object, key)) {
        if (number != std::floor(number) || number < -1.0 || number > std::numeric_limits<int>::max())
            throw io::InputError(std::string("tree array '") + key + "' holds " + std::to_string(number) +
                                 ", not an index");
        indices.push_back(static_cast<int>(number));
    }
    return indices;
}

} // namespace

void RegressionTree::fit(const Eigen::MatrixXd &features, const Eigen::VectorXd &target,
                         const std::vector<Eigen::Index> &samples, const std::vector<double> &weights,
                         const RegressionTreeOptions &options)
{
    if (samples.size() != weights.size())
        throw io::InputError("a regression tree needs one weight per sample");
    TreeBuilder builder(features, target, samples, weights, options);
    if (builder.sampleCount() == 0)
        throw io::InputError("a regression tree needs at least one sample with a positive weight");
    mFeatureCount = static_cast<int>(features.cols());
    mFeature.clear();
    mThreshold.clear();
    mLeft.clear();
    mRight.clear();
    mValue.clear();
    builder.build(mFeature, mThreshold, mLeft, mRight, mValue);
}

double RegressionTree::predictRow(const Eigen::MatrixXd &features, Eigen::Index row) const
{
    std::size_t node = 0;
    while (mFeature[node] >= 0)
        node = static_cast<std::size_t>(features(row, mFeature[node]) <= mThreshold[node] ? mLeft[node] : mRight[node]);
    return mValue[node];
}

Eigen::VectorXd RegressionTree::predict(const Eigen::MatrixXd &features) const
{
    if (mValue.empty())
        throw io::InputError("the regression tree has not been fitted");
    if (features.cols() != mFeatureCount)
        throw io::InputError("the regression tree expects " + std::to_string(mFeatureCount) + " features, not " +
                             std::to_string(features.cols()));
    Eigen::VectorXd predictions(features.rows());
    for (Eigen::Index row = 0; row < features.rows(); ++row)
        predictions(row) = predictRow(features, row);
    return predictions;
}

int RegressionTree::depth() const
{
    std::vector<int> levels(mValue.size(), 0);
    int deepest = 0;
    // Children always follow their parent, so one forward pass sees each parent's level first.
    for (std::size_t node = 0; node < mValue.size(); ++node) {
        deepest = std::max(deepest, levels[node]);
        if (mFeature[node] >= 0) {
            levels[static_cast<std::size_t>(mLeft[node])] = levels[node] + 1;
            levels[static_cast<std::size_t>(mRight[node])] = levels[node] + 1;
        }
    }
    return deepest;
}

void to_json(io::Json &json, const RegressionTree &tree)
{
    json = {{"features", tree.featureCount()}, {"feature", tree.feature()},
            {"threshold", tree.threshold()},   {"left", tree.left()},
            {"right", tree.right()},           {"value", tree.value()}};
}

RegressionTree RegressionTree::read(const io::Json &value)
{
    RegressionTree tree;
    const double features = io::toNumber(io::member(value, "features"));
    if (features != std::floor(features) || features < 0.0 || features > 1e6)
        throw io::InputError("a tree's feature count must be a whole number from 0 to 1000000");
    tree.mFeatureCount = static_cast<int>(features);
    tree.mFeature = indicesOf(value, "feature");
    tree.mThreshold = numbersOf(value, "threshold");
    tree.mLeft = indicesOf(value, "left");
    tree.mRight = indicesOf(value, "right");
    tree.mValue = numbersOf(value, "value");
    const std::size_t nodes = tree.mValue.size();
    if (nodes == 0 || tree.mFeature.size() != nodes || tree.mThreshold.size() != nodes || tree.mLeft.size() != nodes ||
        tree.mRight.size() != nodes)
        throw io::InputError("a tree's arrays must be non-empty and of equal length");
    for (std::size_t node = 0; node < nodes; ++node) {
        if (tree.mFeature[node] < 0)
            continue;
        // Children must come after their parent: that rules out cycles, so prediction always ends at a leaf.
        const auto inside = [&](int child) {
            return child > static_cast<int>(node) && child < static_cast<int>(nodes);
        };
        if (tree.mFeature[node] >= tree.mFeatureCount || !inside(tree.mLeft[node]) || !inside(tree.mRight[node]))
            throw io::InputError("tree node " + std::to_string(node) + " points outside the tree");
    }
    return tree;
}

std::vector<RegressionTree> readTrees(const io::Json &array)
{
    std::vector<RegressionTree> trees;
    for (const io::Json &tree : io::toArray(array))
        trees.push_back(RegressionTree::read(tree));
    if (trees.empty())
        throw io::InputError("a tree ensemble needs at least one tree");
    return trees;
}

} // namespace gpumem::models
