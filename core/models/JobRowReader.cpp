// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/JobRowReader.h"

#include "io/InputError.h"
#include "io/NumberText.h"
#include "probe/JobLayers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpumem::models {

namespace {

// The element of items whose name is name, or nullptr.
template <typename Items> const typename Items::value_type *findNamed(const Items &items, const std::string &name)
{
    const auto found =
        std::find_if(items.begin(), items.end(), [&name](const auto &item) { return item.name == name; });
    return found == items.end() ? nullptr : &*found;
}

const data::CategoricalFeature *findCategorical(const data::Dataset &dataset, const std::string &name)
{
    return findNamed(dataset.categoricalFeatures(), name);
}

int findNumeric(const data::Dataset &dataset, const std::string &name)
{
    const auto &names = dataset.numericFeatureNames();
    const auto found = std::find(names.begin(), names.end(), name);
    return found == names.end() ? -1 : static_cast<int>(found - names.begin());
}

// An ignored column with one value still describes every job: a probe dataset of
// one family has a constant `family`, which the workbench ignores by default.
const data::ConstantColumn *findConstant(const data::Dataset &dataset, const std::string &name)
{
    return findNamed(dataset.constantColumns(), name);
}

bool hasColumn(const data::Dataset &dataset, const std::string &name)
{
    return findNumeric(dataset, name) >= 0 || findCategorical(dataset, name) != nullptr ||
           findConstant(dataset, name) != nullptr;
}

} // namespace

JobRowReader::JobRowReader(const data::Dataset &dataset, std::string modelName, std::string assumedOptimizer)
    : mDataset(dataset)
    , mModelName(std::move(modelName))
    , mAssumedOptimizer(std::move(assumedOptimizer))
{
    const auto *family = findCategorical(dataset, "family");
    const auto *constantFamily = findConstant(dataset, "family");
    if (family != nullptr || (constantFamily != nullptr && constantFamily->type == data::ColumnType::Categorical)) {
        mProbe = true;
        require("family");
        // Every family that occurs needs its own configuration columns.
        std::vector<std::string> families;
        if (family == nullptr) {
            families.push_back(constantFamily->text);
        } else {
            std::vector<bool> seen(family->categories.size(), false);
            for (std::int32_t code : family->codes)
                if (code >= 0)
                    seen[static_cast<std::size_t>(code)] = true;
            for (std::size_t category = 0; category < seen.size(); ++category)
                if (seen[category])
                    families.push_back(family->categories[category]);
        }
        for (const auto &name : families)
            for (const auto &column : probe::JobConfiguration::columnNames(probe::parseJobFamily(name)))
                require(column);
        return;
    }
    if (!dataset.hasSequence())
        throw io::InputError(mModelName +
                             " needs the job's configuration: a probe dataset's columns (column 'family' and the "
                             "family's knobs) or a GPUMemNet layer sequence and 'Batch Size'; column 'family' and a "
                             "layer-sequence column are missing");
    mColumns.sequenceColumn = dataset.sequenceName();
    mColumns.fieldsPerLayer = dataset.sequence().fieldsPerLayer();
    mBatchColumn = hasColumn(dataset, std::string(data::batchSizeColumns[0])) ? data::batchSizeColumns[0]
                                                                              : data::batchSizeColumns[1];
    if (!hasColumn(dataset, mBatchColumn))
        throw io::InputError(mModelName + " needs column 'Batch Size' (or batch_size) with the layer sequence '" +
                             dataset.sequenceName() + "'; it is missing or not used as a feature");
    require(mBatchColumn);
    if (hasColumn(dataset, "optimizer"))
        require("optimizer");
}

void JobRowReader::require(const std::string &column)
{
    const auto recorded = [&column](const auto &entry) { return entry.column == column; };
    if (std::find(mColumns.numericColumns.begin(), mColumns.numericColumns.end(), column) !=
            mColumns.numericColumns.end() ||
        std::any_of(mColumns.categoricals.begin(), mColumns.categoricals.end(), recorded))
        return;
    if (findNumeric(mDataset, column) >= 0) {
        mColumns.numericColumns.push_back(column);
        return;
    }
    if (const auto *feature = findCategorical(mDataset, column)) {
        mColumns.categoricals.push_back({column, feature->categories});
        return;
    }
    // A constant is recorded as the feature it would have been, so a saved model asks
    // the jobs it predicts for the column as usual.
    if (const auto *constant = findConstant(mDataset, column)) {
        if (constant->type == data::ColumnType::Numeric)
            mColumns.numericColumns.push_back(column);
        else
            mColumns.categoricals.push_back({column, {constant->text}});
        return;
    }
    throw io::InputError(mModelName + " needs column '" + column +
                         "' to rebuild the job; it is missing or not used as a feature");
}

double JobRowReader::number(std::size_t row, const std::string &column) const
{
    const int numeric = findNumeric(mDataset, column);
    if (numeric >= 0)
        return mDataset.numericFeatures()(static_cast<Eigen::Index>(row), numeric);
    const auto *constant = findConstant(mDataset, column);
    if (constant == nullptr || constant->type != data::ColumnType::Numeric)
        throw io::InputError(mModelName + " needs numeric column '" + column +
                             "' to rebuild the job; it is missing or not used as a feature");
    return constant->number;
}

std::string JobRowReader::text(std::size_t row, const std::string &column) const
{
    const int numeric = findNumeric(mDataset, column);
    if (numeric >= 0)
        return io::csvNumber(mDataset.numericFeatures()(static_cast<Eigen::Index>(row), numeric));
    if (const auto *constant = findConstant(mDataset, column))
        return constant->text;
    const auto *feature = findCategorical(mDataset, column);
    if (feature == nullptr)
        throw io::InputError(mModelName + " needs column '" + column +
                             "' to rebuild the job; it is missing or not used as a feature");
    const std::int32_t code = feature->codes[row];
    return code < 0 ? std::string() : feature->categories[static_cast<std::size_t>(code)];
}

JobRow JobRowReader::row(std::size_t index) const
{
    JobRow row;
    try {
        if (mProbe) {
            const probe::JobFamily family = probe::parseJobFamily(text(index, "family"));
            row.fromProbe = true;
            row.job = probe::JobConfiguration::fromColumns(
                family, [this, index](const std::string &column) { return text(index, column); });
            row.layers = probe::describeLayers(row.job);
            row.batchSize = row.job.batchSize;
            row.optimizer = row.job.optimizer;
            row.bytesPerElement = probe::bytesPerElement(row.job.dtype);
            return row;
        }
        const auto &sequence = mDataset.sequence();
        if (!sequence.isPresent(index) || sequence.fieldsPerLayer() < 2)
            throw io::InputError("the layer sequence needs (type, activations, parameters) tuples");
        for (std::size_t layer = sequence.layerBegin(index); layer < sequence.layerEnd(index); ++layer)
            row.layers.push_back({sequence.layerTypes()[sequence.layerType(layer)],
                                  {sequence.field(layer, 0), sequence.field(layer, 1)}});
        const double batch = number(index, mBatchColumn);
        if (!(batch >= 1.0 && batch <= 1e9) || batch != std::floor(batch))
            throw io::InputError("column '" + mBatchColumn + "' needs a positive whole number");
        row.batchSize = static_cast<int>(batch);
        row.optimizer = hasColumn(mDataset, "optimizer") ? text(index, "optimizer") : mAssumedOptimizer;
        probe::optimizerStatesPerParameter(row.optimizer); // rejects unknown names
        row.bytesPerElement = 4;
    } catch (const io::InputError &error) {
        throw atRow(index, error);
    }
    return row;
}

double JobRowReader::batchSize(std::size_t index) const
{
    if (mProbe)
        return std::nan("");
    try {
        return number(index, mBatchColumn);
    } catch (const io::InputError &) {
        return std::nan(""); // a batch size column that is not numeric
    }
}

io::InputError JobRowReader::atRow(std::size_t index, const io::InputError &error) const
{
    if (error.line() != 0)
        return error;
    return io::InputError(mDataset.source(), mDataset.rowLines()[index], 0, error.markedMessage());
}

} // namespace gpumem::models
