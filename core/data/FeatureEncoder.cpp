// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/FeatureEncoder.h"

#include "data/EncodingLimits.h"
#include "io/InputError.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace gpumem::data {

namespace {

// Maps each name in names to its position, for lookups by name.
std::unordered_map<std::string, std::int32_t> positionsOf(const std::vector<std::string> &names)
{
    std::unordered_map<std::string, std::int32_t> positions;
    for (std::size_t i = 0; i < names.size(); ++i)
        positions.emplace(names[i], static_cast<std::int32_t>(i));
    return positions;
}

// For each entry of from, its slot in to, or -1 when to does not hold it.
std::vector<std::int32_t> slotsOf(const std::vector<std::string> &from, const std::vector<std::string> &to)
{
    const auto positions = positionsOf(to);
    std::vector<std::int32_t> slots;
    slots.reserve(from.size());
    for (const auto &name : from) {
        const auto it = positions.find(name);
        slots.push_back(it == positions.end() ? -1 : it->second);
    }
    return slots;
}

[[noreturn]] void missingColumn(const std::string &column, const char *kind)
{
    throw io::InputError("the data has no " + std::string(kind) + " column " + io::quoteForMessage(column, 60) +
                         ", which the model was trained with");
}

// The layer types seen in trainingRows, in order of first appearance; when there
// are more than maxLayerTypes, only the most frequent ones followed by the shared
// "other" type, so that a file of thousands of distinct types stays small.
std::vector<std::string> frequentLayerTypes(const SequenceColumn &sequence,
                                            const std::vector<Eigen::Index> &trainingRows)
{
    std::vector<std::int64_t> frequency(sequence.layerTypes().size(), 0);
    for (Eigen::Index row : trainingRows) {
        const auto r = static_cast<std::size_t>(row);
        for (std::size_t layer = sequence.layerBegin(r); layer < sequence.layerEnd(r); ++layer)
            ++frequency[sequence.layerType(layer)];
    }
    std::vector<std::size_t> seen;
    for (std::size_t type = 0; type < frequency.size(); ++type)
        if (frequency[type] > 0)
            seen.push_back(type);
    const bool capped = seen.size() > maxLayerTypes;
    if (capped) {
        // Ties go to the type seen first, so the choice does not depend on the sort.
        std::stable_sort(seen.begin(), seen.end(),
                         [&frequency](std::size_t a, std::size_t b) { return frequency[a] > frequency[b]; });
        seen.resize(maxLayerTypes);
        std::sort(seen.begin(), seen.end());
    }
    std::vector<std::string> types;
    types.reserve(seen.size() + 1);
    for (std::size_t type : seen)
        types.push_back(sequence.layerTypes()[type]);
    if (capped)
        types.emplace_back(FeatureEncoding::otherLayerType);
    return types;
}

// Names the first cell of the dataset whose encoding is not finite. Only sums of
// layer fields can overflow (every stored cell is finite), so the cell is the
// row's layer sequence.
void rejectNonFinite(const Eigen::MatrixXd &encoded, const Dataset &dataset, const std::vector<std::string> &names)
{
    if (encoded.allFinite())
        return;
    for (Eigen::Index r = 0; r < encoded.rows(); ++r) {
        for (Eigen::Index c = 0; c < encoded.cols(); ++c) {
            if (std::isfinite(encoded(r, c)))
                continue;
            throw io::InputError(dataset.source(), dataset.rowLines()[static_cast<std::size_t>(r)],
                                 dataset.hasSequence() ? static_cast<std::int64_t>(dataset.sequenceColumnIndex() + 1)
                                                       : 0,
                                 "feature " + io::quoteForMessage(names[static_cast<std::size_t>(c)], 60) +
                                     " is not finite (the layer values add up beyond the largest number)");
        }
    }
}

} // namespace

std::string batchSizeColumnOf(const std::vector<std::string> &numericColumns)
{
    for (const std::string_view name : batchSizeColumns)
        if (std::find(numericColumns.begin(), numericColumns.end(), name) != numericColumns.end())
            return std::string(name);
    return {};
}

FeatureEncoder::FeatureEncoder(FeatureEncoding encoding)
    : mEncoding(std::move(encoding))
{
    nameFeatures();
}

void FeatureEncoder::fit(const Dataset &dataset, const std::vector<Eigen::Index> &trainingRows)
{
    mEncoding = FeatureEncoding();
    mEncoding.numericColumns = dataset.numericFeatureNames();
    for (const CategoricalFeature &feature : dataset.categoricalFeatures()) {
        std::vector<bool> seen(feature.categories.size(), false);
        for (Eigen::Index row : trainingRows)
            seen[static_cast<std::size_t>(feature.codes[static_cast<std::size_t>(row)])] = true;
        FeatureEncoding::Categorical categorical{feature.name, {}};
        for (std::size_t code = 0; code < seen.size(); ++code)
            if (seen[code])
                categorical.categories.push_back(feature.categories[code]);
        mEncoding.categoricals.push_back(std::move(categorical));
    }
    if (dataset.hasSequence()) {
        const SequenceColumn &sequence = dataset.sequence();
        mEncoding.sequenceColumn = dataset.sequenceName();
        mEncoding.fieldsPerLayer = sequence.fieldsPerLayer();
        mEncoding.layerTypes = frequentLayerTypes(sequence, trainingRows);
        if (mEncoding.fieldsPerLayer > 0)
            mEncoding.batchColumn = batchSizeColumnOf(mEncoding.numericColumns);
    }
    nameFeatures();
    EncodedWidth width;
    width.numeric = mEncoding.numericColumns.size();
    for (const auto &categorical : mEncoding.categoricals)
        width.oneHot += categorical.categories.size();
    width.sequence = mFeatureNames.size() - width.numeric - width.oneHot;
    checkEncodedWidth(dataset.source(), width);
    learnRanges(transform(dataset), trainingRows);
}

void FeatureEncoder::learnRanges(const Eigen::MatrixXd &encoded, const std::vector<Eigen::Index> &trainingRows)
{
    mEncoding.ranges.assign(static_cast<std::size_t>(encoded.cols()), FeatureRange{});
    if (trainingRows.empty())
        return;
    for (Eigen::Index column = 0; column < encoded.cols(); ++column) {
        FeatureRange &range = mEncoding.ranges[static_cast<std::size_t>(column)];
        range.minimum = range.maximum = encoded(trainingRows.front(), column);
        for (const Eigen::Index row : trainingRows) {
            range.minimum = std::min(range.minimum, encoded(row, column));
            range.maximum = std::max(range.maximum, encoded(row, column));
        }
    }
}

std::vector<std::vector<Extrapolation>> FeatureEncoder::extrapolations(const Dataset &dataset,
                                                                       const Eigen::MatrixXd &encoded) const
{
    std::vector<std::vector<Extrapolation>> found(dataset.rowCount());
    if (mEncoding.ranges.size() != mFeatureNames.size() ||
        encoded.cols() != static_cast<Eigen::Index>(mFeatureNames.size()))
        return found;
    std::vector<bool> oneHot(mFeatureNames.size(), false);
    std::size_t column = mEncoding.numericColumns.size();
    for (const auto &categorical : mEncoding.categoricals)
        for (std::size_t i = 0; i < categorical.categories.size(); ++i)
            oneHot[column++] = true;

    for (std::size_t row = 0; row < dataset.rowCount(); ++row) {
        const auto r = static_cast<Eigen::Index>(row);
        for (std::size_t c = 0; c < mFeatureNames.size(); ++c) {
            if (oneHot[c])
                continue; // a category is judged by name below
            const FeatureRange &range = mEncoding.ranges[c];
            const double value = encoded(r, static_cast<Eigen::Index>(c));
            // A relative slack keeps the training rows' own values, read back from decimal text, inside.
            const double slack = 1e-9 * std::max({1.0, std::abs(range.minimum), std::abs(range.maximum)});
            if (value < range.minimum - slack || value > range.maximum + slack)
                found[row].push_back({mFeatureNames[c], value, {}, range});
        }
        for (const auto &categorical : mEncoding.categoricals) {
            const auto &features = dataset.categoricalFeatures();
            const auto feature = std::find_if(features.begin(), features.end(), [&](const CategoricalFeature &f) {
                return f.name == categorical.column;
            });
            if (feature == features.end())
                continue;
            const std::int32_t code = feature->codes[row];
            if (code < 0)
                continue;
            const std::string &category = feature->categories[static_cast<std::size_t>(code)];
            if (std::find(categorical.categories.begin(), categorical.categories.end(), category) ==
                categorical.categories.end())
                found[row].push_back({categorical.column, 0.0, category, {}});
        }
    }
    return found;
}

std::string describeExtrapolation(const Extrapolation &extrapolation)
{
    if (!extrapolation.category.empty())
        return extrapolation.feature + " " + io::quoteForMessage(extrapolation.category, 40) + " unseen in training";
    const auto number = [](double value) { return fmt::format("{:.6g}", value); };
    const bool above = extrapolation.value > extrapolation.range.maximum;
    return extrapolation.feature + " " + number(extrapolation.value) + (above ? " > " : " < ") +
           number(above ? extrapolation.range.maximum : extrapolation.range.minimum) + " (trained " +
           number(extrapolation.range.minimum) + " to " + number(extrapolation.range.maximum) + ")";
}

void FeatureEncoder::nameFeatures()
{
    mFeatureNames = mEncoding.numericColumns;
    for (const auto &categorical : mEncoding.categoricals)
        for (const auto &category : categorical.categories)
            mFeatureNames.push_back(categorical.column + '=' + category);
    if (mEncoding.sequenceColumn.empty())
        return;
    const std::string &name = mEncoding.sequenceColumn;
    mFeatureNames.push_back(name + ".length");
    for (const auto &type : mEncoding.layerTypes)
        mFeatureNames.push_back(name + ".count[" + type + ']');
    for (int field = 0; field < mEncoding.fieldsPerLayer; ++field) {
        mFeatureNames.push_back(name + ".sum[" + std::to_string(field + 1) + ']');
        mFeatureNames.push_back(name + ".max[" + std::to_string(field + 1) + ']');
    }
    if (!mEncoding.batchColumn.empty()) {
        mFeatureNames.push_back(name + ".sum[1]*" + mEncoding.batchColumn);
        mFeatureNames.push_back(name + ".max[1]*" + mEncoding.batchColumn);
    }
}

Eigen::MatrixXd FeatureEncoder::transform(const Dataset &dataset) const
{
    const auto rows = static_cast<Eigen::Index>(dataset.rowCount());
    Eigen::MatrixXd encoded = Eigen::MatrixXd::Zero(rows, static_cast<Eigen::Index>(mFeatureNames.size()));
    Eigen::Index column = 0;

    const std::vector<std::int32_t> numericSources = slotsOf(mEncoding.numericColumns, dataset.numericFeatureNames());
    for (std::size_t i = 0; i < numericSources.size(); ++i, ++column) {
        if (numericSources[i] < 0)
            missingColumn(mEncoding.numericColumns[i], "numeric");
        encoded.col(column) = dataset.numericFeatures().col(numericSources[i]);
    }

    for (const auto &categorical : mEncoding.categoricals) {
        const auto &features = dataset.categoricalFeatures();
        const auto feature = std::find_if(features.begin(), features.end(),
                                          [&](const CategoricalFeature &f) { return f.name == categorical.column; });
        if (feature == features.end())
            missingColumn(categorical.column, "categorical");
        const std::vector<std::int32_t> codeToSlot = slotsOf(feature->categories, categorical.categories);
        for (Eigen::Index r = 0; r < rows; ++r) {
            const std::int32_t slot = codeToSlot[static_cast<std::size_t>(feature->codes[static_cast<std::size_t>(r)])];
            if (slot >= 0)
                encoded(r, column + slot) = 1.0;
        }
        column += static_cast<Eigen::Index>(categorical.categories.size());
    }

    if (mEncoding.sequenceColumn.empty())
        return encoded;
    if (!dataset.hasSequence() || dataset.sequenceName() != mEncoding.sequenceColumn)
        missingColumn(mEncoding.sequenceColumn, "layer-sequence");
    const SequenceColumn &sequence = dataset.sequence();
    if (sequence.totalLayers() > 0 && sequence.fieldsPerLayer() != mEncoding.fieldsPerLayer)
        throw io::InputError("the layers of column " + io::quoteForMessage(mEncoding.sequenceColumn, 60) + " carry " +
                             std::to_string(sequence.fieldsPerLayer()) + " numbers, the model was trained with " +
                             std::to_string(mEncoding.fieldsPerLayer));
    std::vector<std::int32_t> typeToSlot = slotsOf(sequence.layerTypes(), mEncoding.layerTypes);
    if (mEncoding.countsOtherLayerTypes()) {
        const auto otherSlot = static_cast<std::int32_t>(mEncoding.layerTypes.size() - 1);
        for (std::int32_t &slot : typeToSlot)
            if (slot < 0)
                slot = otherSlot;
    }
    const Eigen::Index countColumn = column + 1;
    const Eigen::Index fieldColumn = countColumn + static_cast<Eigen::Index>(mEncoding.layerTypes.size());
    for (Eigen::Index r = 0; r < rows; ++r) {
        const auto row = static_cast<std::size_t>(r);
        encoded(r, column) = static_cast<double>(sequence.layerCount(row));
        for (std::size_t layer = sequence.layerBegin(row); layer < sequence.layerEnd(row); ++layer) {
            const std::int32_t slot = typeToSlot[sequence.layerType(layer)];
            if (slot >= 0)
                encoded(r, countColumn + slot) += 1.0;
            for (int field = 0; field < mEncoding.fieldsPerLayer; ++field) {
                const double value = sequence.field(layer, field);
                encoded(r, fieldColumn + 2 * field) += value;
                double &maximum = encoded(r, fieldColumn + 2 * field + 1);
                maximum = layer == sequence.layerBegin(row) ? value : std::max(maximum, value);
            }
        }
    }
    if (!mEncoding.batchColumn.empty()) {
        const auto batch = static_cast<Eigen::Index>(
            std::find(mEncoding.numericColumns.begin(), mEncoding.numericColumns.end(), mEncoding.batchColumn) -
            mEncoding.numericColumns.begin());
        if (batch == static_cast<Eigen::Index>(mEncoding.numericColumns.size()))
            missingColumn(mEncoding.batchColumn, "numeric");
        const Eigen::Index productColumn = fieldColumn + 2 * static_cast<Eigen::Index>(mEncoding.fieldsPerLayer);
        encoded.col(productColumn) = encoded.col(fieldColumn).cwiseProduct(encoded.col(batch));
        encoded.col(productColumn + 1) = encoded.col(fieldColumn + 1).cwiseProduct(encoded.col(batch));
    }
    rejectNonFinite(encoded, dataset, mFeatureNames);
    return encoded;
}

} // namespace gpumem::data
