// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/Json.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace gpumem::models {

// How a RegressionTree grows.
struct RegressionTreeOptions
{
    int maxDepth = 0;        // deepest level below the root; 0 grows until the leaves are pure
    int minSamplesSplit = 2; // a node with fewer samples becomes a leaf
    int minSamplesLeaf = 1;  // a split must leave at least this many samples on each side
    int maxFeatures = 0;     // features tried at each node, drawn at random; 0 or ≥ all tries every feature
    std::uint64_t seed = 0;  // draws the features tried at each node when maxFeatures is below all
};

// A CART regression tree fitted by weighted squared error, as scikit-learn's
// DecisionTreeRegressor: at each node it takes the exact best split over the
// sorted values of the features tried, with the threshold halfway between the
// two neighbouring distinct values, and predicts the weighted mean of its
// leaf. Equal improvements go to the lower feature index, then the lower
// threshold, so a seed gives one tree everywhere. The tree is stored as flat
// arrays (node 0 is the root; a leaf has feature -1). A fitted tree may be read
// from several threads at once; fitting is single-threaded.
class RegressionTree
{
  public:
    // Fits on the samples (rows of features) with their weights: samples may
    // repeat a row (a resample), weights must be non-negative with a positive sum.
    // Sample counts for minSamplesSplit/minSamplesLeaf count entries of samples.
    void fit(const Eigen::MatrixXd &features, const Eigen::VectorXd &target, const std::vector<Eigen::Index> &samples,
             const std::vector<double> &weights, const RegressionTreeOptions &options);

    // Returns the prediction for each row of features (columns as in fit()).
    Eigen::VectorXd predict(const Eigen::MatrixXd &features) const;
    // Returns the prediction for one row of features.
    double predictRow(const Eigen::MatrixXd &features, Eigen::Index row) const;

    std::size_t nodeCount() const { return mValue.size(); }
    // Levels below the root of the deepest leaf.
    int depth() const;
    int featureCount() const { return mFeatureCount; }
    // The flat arrays, indexed by node.
    const std::vector<int> &feature() const { return mFeature; }
    const std::vector<double> &threshold() const { return mThreshold; }
    const std::vector<int> &left() const { return mLeft; }
    const std::vector<int> &right() const { return mRight; }
    const std::vector<double> &value() const { return mValue; }

    // Reads what to_json() wrote; throws io::InputError when the arrays disagree
    // in length, point outside the tree or backwards (a cycle), or hold a
    // non-finite value.
    static RegressionTree read(const io::Json &value);

  private:
    int mFeatureCount = 0;
    std::vector<int> mFeature;
    std::vector<double> mThreshold;
    std::vector<int> mLeft;
    std::vector<int> mRight;
    std::vector<double> mValue;
};

// The JSON form of a tree: {"features", "feature", "threshold", "left", "right", "value"}.
// A vector of trees becomes an array of these.
void to_json(io::Json &json, const RegressionTree &tree);
// Reads an array of trees as to_json() writes them; throws io::InputError when it is
// empty or a tree is malformed (see RegressionTree::read()).
std::vector<RegressionTree> readTrees(const io::Json &array);

} // namespace gpumem::models
