// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"

#include <Eigen/Core>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::data {

// What a FeatureEncoder learned, by name, so that it can be saved with a model
// and applied to another file whose categories are numbered differently.
// The smallest and largest value one encoded column took over the training rows.
struct FeatureRange
{
    double minimum = 0.0;
    double maximum = 0.0;
};

struct FeatureEncoding
{
    // The name of the one count that the layer types beyond maxLayerTypes share;
    // when present it is the last entry of layerTypes.
    static constexpr const char *otherLayerType = "<other>";

    struct Categorical
    {
        std::string column;
        std::vector<std::string> categories; // one output column each, in this order
    };

    std::vector<std::string> numericColumns;
    std::vector<Categorical> categoricals;
    std::string sequenceColumn;          // empty when there is none
    std::vector<std::string> layerTypes; // counted layer types, in output order
    int fieldsPerLayer = 0;
    // The numeric column holding the batch size (one of batchSizeColumns) that the
    // layers' activations are multiplied by; empty when there is none (and in folders
    // saved before the product was encoded).
    std::string batchColumn;
    // One per encoded column (featureNames() order): its range over the training rows.
    // Empty when not known (model folders saved before ranges were kept).
    std::vector<FeatureRange> ranges;

    // Returns whether rare and unseen layer types are counted under otherLayerType.
    bool countsOtherLayerTypes() const { return !layerTypes.empty() && layerTypes.back() == otherLayerType; }
};

// The column names that hold a job's batch size: GPUMemNet's, then the probe's.
inline constexpr std::array<std::string_view, 2> batchSizeColumns{"Batch Size", "batch_size"};

// The first of batchSizeColumns among numericColumns, or empty.
std::string batchSizeColumnOf(const std::vector<std::string> &numericColumns);

// A value of one job that lies outside what the model saw in training: a number
// beyond a feature's training range, or a category no training row had.
struct Extrapolation
{
    std::string feature;  // the encoded column ("Batch Size", "layers.count[conv]") or the categorical column
    double value = 0.0;   // the job's value (numeric and layer-sequence features)
    std::string category; // the unseen category; empty for a number
    FeatureRange range;   // the training range of a number
};

// Describes extrapolation in a few words, e.g. "Batch Size 512 > 256 (trained 8 to 256)"
// or "optimizer 'lion' unseen in training".
std::string describeExtrapolation(const Extrapolation &extrapolation);

// Turns a Dataset into the flat feature matrix that tabular models need:
// numeric features as they are, categorical features one-hot encoded, and the
// layer sequence summarised (length, count of each layer type, sum and maximum
// of each numeric field). When the data also say the batch size, the sum and the
// maximum of the layers' first field (activations per sample) are encoded once more
// multiplied by it: the activation memory of a step grows with that product, which
// a tree cannot form from its factors and a network only learns slowly. Categories and layer types are learned from the
// training rows only, so nothing about held-out rows leaks into the encoding;
// values never seen in training encode as all zeros. Only the maxLayerTypes most
// frequent layer types are counted one by one; when there are more, the rest and
// any type unseen in training share one "<other>" count. The encoded width is
// held to maxEncodedFeatures (EncodingLimits.h).
class FeatureEncoder
{
  public:
    FeatureEncoder() = default;
    // Restores an encoder from what fit() learned before (e.g. read back with a saved model).
    explicit FeatureEncoder(FeatureEncoding encoding);

    // Learns the categories and layer types present in trainingRows of dataset.
    // Throws io::InputError when the encoding would exceed maxEncodedFeatures columns.
    void fit(const Dataset &dataset, const std::vector<Eigen::Index> &trainingRows);

    // Returns the encoded matrix of every row of dataset: rows × featureNames().size().
    // Throws io::InputError when dataset lacks a column the encoder was fitted on, or
    // when a feature is not finite (layer values whose sum overflows), naming the cell.
    Eigen::MatrixXd transform(const Dataset &dataset) const;

    // For each row of dataset, the values outside the training ranges and the categories
    // training never saw; encoded is transform(dataset). Every list is empty when the
    // encoding has no ranges.
    std::vector<std::vector<Extrapolation>> extrapolations(const Dataset &dataset,
                                                           const Eigen::MatrixXd &encoded) const;

    // Column names of the encoded matrix, e.g. "Batch Size", "act=ReLU", "layers.count[linear]".
    const std::vector<std::string> &featureNames() const { return mFeatureNames; }
    const FeatureEncoding &encoding() const { return mEncoding; }

  private:
    void nameFeatures();
    void learnRanges(const Eigen::MatrixXd &encoded, const std::vector<Eigen::Index> &trainingRows);

    FeatureEncoding mEncoding;
    std::vector<std::string> mFeatureNames;
};

} // namespace gpumem::data
