#include "data/FeatureEncoder.h"

#include <algorithm>

namespace gpumem::data {

void FeatureEncoder::fit(const Dataset &dataset, const std::vector<Eigen::Index> &trainingRows)
{
    *this = FeatureEncoder();
    mNumericCount = dataset.numericFeatureNames().size();
    mFeatureNames = dataset.numericFeatureNames();

    const auto &categoricals = dataset.categoricalFeatures();
    for (std::size_t f = 0; f < categoricals.size(); ++f) {
        const CategoricalFeature &feature = categoricals[f];
        std::vector<bool> seen(feature.categories.size(), false);
        for (Eigen::Index row : trainingRows)
            seen[static_cast<std::size_t>(feature.codes[static_cast<std::size_t>(row)])] = true;
        OneHot oneHot{f, std::vector<std::int32_t>(feature.categories.size(), -1)};
        std::int32_t slot = 0;
        for (std::size_t code = 0; code < seen.size(); ++code) {
            if (!seen[code])
                continue;
            oneHot.codeToSlot[code] = slot++;
            mFeatureNames.push_back(feature.name + '=' + feature.categories[code]);
        }
        mOneHots.push_back(std::move(oneHot));
    }

    mHasSequence = dataset.hasSequence();
    if (!mHasSequence)
        return;
    const SequenceColumn &sequence = dataset.sequence();
    const std::string &name = dataset.sequenceName();
    mFieldsPerLayer = sequence.fieldsPerLayer();
    std::vector<bool> seen(sequence.layerTypes().size(), false);
    for (Eigen::Index row : trainingRows) {
        const auto r = static_cast<std::size_t>(row);
        for (std::size_t layer = sequence.layerBegin(r); layer < sequence.layerEnd(r); ++layer)
            seen[sequence.layerType(layer)] = true;
    }
    mLayerTypeToSlot.assign(seen.size(), -1);
    mFeatureNames.push_back(name + ".length");
    for (std::size_t type = 0; type < seen.size(); ++type) {
        if (!seen[type])
            continue;
        mLayerTypeToSlot[type] = static_cast<std::int32_t>(mLayerTypeCount++);
        mFeatureNames.push_back(name + ".count[" + sequence.layerTypes()[type] + ']');
    }
    for (int field = 0; field < mFieldsPerLayer; ++field) {
        mFeatureNames.push_back(name + ".sum[" + std::to_string(field + 1) + ']');
        mFeatureNames.push_back(name + ".max[" + std::to_string(field + 1) + ']');
    }
}

Eigen::MatrixXd FeatureEncoder::transform(const Dataset &dataset) const
{
    const auto rows = static_cast<Eigen::Index>(dataset.rowCount());
    Eigen::MatrixXd encoded = Eigen::MatrixXd::Zero(rows, static_cast<Eigen::Index>(mFeatureNames.size()));
    if (mNumericCount > 0)
        encoded.leftCols(static_cast<Eigen::Index>(mNumericCount)) = dataset.numericFeatures();
    auto column = static_cast<Eigen::Index>(mNumericCount);

    for (const OneHot &oneHot : mOneHots) {
        const CategoricalFeature &feature = dataset.categoricalFeatures()[oneHot.feature];
        std::int32_t width = 0;
        for (std::int32_t slot : oneHot.codeToSlot)
            width = std::max(width, slot + 1);
        for (Eigen::Index r = 0; r < rows; ++r) {
            const std::int32_t code = feature.codes[static_cast<std::size_t>(r)];
            const std::int32_t slot = oneHot.codeToSlot[static_cast<std::size_t>(code)];
            if (slot >= 0)
                encoded(r, column + slot) = 1.0;
        }
        column += width;
    }

    if (!mHasSequence)
        return encoded;
    const SequenceColumn &sequence = dataset.sequence();
    const Eigen::Index countColumn = column + 1;
    const Eigen::Index fieldColumn = countColumn + static_cast<Eigen::Index>(mLayerTypeCount);
    for (Eigen::Index r = 0; r < rows; ++r) {
        const auto row = static_cast<std::size_t>(r);
        encoded(r, column) = static_cast<double>(sequence.layerCount(row));
        for (std::size_t layer = sequence.layerBegin(row); layer < sequence.layerEnd(row); ++layer) {
            const std::uint32_t type = sequence.layerType(layer);
            if (type < mLayerTypeToSlot.size() && mLayerTypeToSlot[type] >= 0)
                encoded(r, countColumn + mLayerTypeToSlot[type]) += 1.0;
            for (int field = 0; field < mFieldsPerLayer; ++field) {
                const double value = sequence.field(layer, field);
                encoded(r, fieldColumn + 2 * field) += value;
                double &maximum = encoded(r, fieldColumn + 2 * field + 1);
                maximum = layer == sequence.layerBegin(row) ? value : std::max(maximum, value);
            }
        }
    }
    return encoded;
}

} // namespace gpumem::data
