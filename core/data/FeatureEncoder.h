#pragma once

#include "data/Dataset.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace gpumem::data {

// Turns a Dataset into the flat feature matrix that tabular models need:
// numeric features as they are, categorical features one-hot encoded, and the
// layer sequence summarised (length, count of each layer type, sum and maximum
// of each numeric field). Categories and layer types are learned from the
// training rows only, so nothing about held-out rows leaks into the encoding;
// values never seen in training encode as all zeros.
class FeatureEncoder
{
  public:
    // Learns the categories and layer types present in trainingRows of dataset.
    void fit(const Dataset &dataset, const std::vector<Eigen::Index> &trainingRows);

    // Returns the encoded matrix of every row of dataset: rows × featureNames().size().
    Eigen::MatrixXd transform(const Dataset &dataset) const;

    // Column names of the encoded matrix, e.g. "Batch Size", "act=ReLU", "layers.count[linear]".
    const std::vector<std::string> &featureNames() const { return mFeatureNames; }

  private:
    struct OneHot
    {
        std::size_t feature;                  // index into Dataset::categoricalFeatures()
        std::vector<std::int32_t> codeToSlot; // dataset code → output slot, -1 when unseen in training
    };

    std::size_t mNumericCount = 0;
    std::vector<OneHot> mOneHots;
    std::vector<std::int32_t> mLayerTypeToSlot; // sequence layer type id → count slot, -1 when unseen
    std::size_t mLayerTypeCount = 0;
    int mFieldsPerLayer = 0;
    bool mHasSequence = false;
    std::vector<std::string> mFeatureNames;
};

} // namespace gpumem::data
