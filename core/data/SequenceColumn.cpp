// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/SequenceColumn.h"

#include <stdexcept>

namespace gpumem::data {

std::uint32_t SequenceColumn::typeIdFor(const std::string &type)
{
    const auto [it, inserted] = mTypeIds.try_emplace(type, static_cast<std::uint32_t>(mLayerTypes.size()));
    if (inserted)
        mLayerTypes.push_back(type);
    return it->second;
}

void SequenceColumn::appendRow(const std::vector<LayerTuple> &layers)
{
    // Validate first so a rejected row leaves the column unchanged.
    int fieldsPerLayer = mFieldsPerLayer;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const int fields = static_cast<int>(layers[i].fields.size());
        if (fieldsPerLayer == 0)
            fieldsPerLayer = fields;
        if (fields != fieldsPerLayer)
            throw std::invalid_argument("layer " + std::to_string(i + 1) + " has " + std::to_string(fields) +
                                        " numbers where earlier layers have " + std::to_string(fieldsPerLayer));
    }
    mFieldsPerLayer = fieldsPerLayer;
    for (const auto &layer : layers) {
        mLayerTypeIds.push_back(typeIdFor(layer.type));
        mFields.insert(mFields.end(), layer.fields.begin(), layer.fields.end());
    }
    mRowStart.push_back(mLayerTypeIds.size());
    mPresent.push_back(1);
}

void SequenceColumn::reserve(std::size_t rows, std::size_t layers, std::size_t numbers)
{
    mRowStart.reserve(rows + 1);
    mPresent.reserve(rows);
    mLayerTypeIds.reserve(layers);
    mFields.reserve(numbers);
}

void SequenceColumn::appendAbsentRow()
{
    mRowStart.push_back(mLayerTypeIds.size());
    mPresent.push_back(0);
}

SequenceColumn SequenceColumn::selectRows(const std::vector<std::size_t> &rows) const
{
    SequenceColumn selected;
    selected.mLayerTypes = mLayerTypes;
    selected.mTypeIds = mTypeIds;
    selected.mFieldsPerLayer = mFieldsPerLayer;
    const auto width = static_cast<std::size_t>(mFieldsPerLayer);
    for (std::size_t row : rows) {
        for (std::size_t layer = layerBegin(row); layer < layerEnd(row); ++layer) {
            selected.mLayerTypeIds.push_back(mLayerTypeIds[layer]);
            selected.mFields.insert(selected.mFields.end(),
                                    mFields.begin() + static_cast<std::ptrdiff_t>(layer * width),
                                    mFields.begin() + static_cast<std::ptrdiff_t>((layer + 1) * width));
        }
        selected.mRowStart.push_back(selected.mLayerTypeIds.size());
        selected.mPresent.push_back(mPresent[row]);
    }
    return selected;
}

} // namespace gpumem::data
