// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/LayerSequenceParser.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpumem::data {

// The layer sequences of one column, stored compactly: a dictionary of layer
// types and flat arrays of layers, so that a million rows of twenty layers
// cost tens of megabytes, not a million small vectors. Every layer of the
// column carries the same number of numeric fields.
class SequenceColumn
{
  public:
    // Appends one row. Throws std::invalid_argument when a layer's field count
    // differs from the layers seen before (the row is then not appended).
    void appendRow(const std::vector<LayerTuple> &layers);
    // Appends a row whose cell was missing or malformed.
    void appendAbsentRow();
    // Reserves room for rows rows holding up to layers layers and numbers numeric fields in all.
    void reserve(std::size_t rows, std::size_t layers, std::size_t numbers);

    std::size_t rowCount() const { return mRowStart.size() - 1; }
    bool isPresent(std::size_t row) const { return mPresent[row] != 0; }
    // Layers of row are the indices [layerBegin(row), layerEnd(row)).
    std::size_t layerBegin(std::size_t row) const { return mRowStart[row]; }
    std::size_t layerEnd(std::size_t row) const { return mRowStart[row + 1]; }
    std::size_t layerCount(std::size_t row) const { return layerEnd(row) - layerBegin(row); }

    // Index into layerTypes() of a layer.
    std::uint32_t layerType(std::size_t layer) const { return mLayerTypeIds[layer]; }
    double field(std::size_t layer, int fieldIndex) const
    {
        return mFields[layer * static_cast<std::size_t>(mFieldsPerLayer) + static_cast<std::size_t>(fieldIndex)];
    }
    // Layer type names in order of first appearance.
    const std::vector<std::string> &layerTypes() const { return mLayerTypes; }
    // Numeric fields per layer; 0 until a layer has been appended.
    int fieldsPerLayer() const { return mFieldsPerLayer; }
    std::size_t totalLayers() const { return mLayerTypeIds.size(); }

    // Returns a column holding the given rows, in the given order.
    SequenceColumn selectRows(const std::vector<std::size_t> &rows) const;

  private:
    std::uint32_t typeIdFor(const std::string &type);

    std::vector<std::string> mLayerTypes;
    std::unordered_map<std::string, std::uint32_t> mTypeIds;
    int mFieldsPerLayer = 0;
    std::vector<std::uint64_t> mRowStart{0};
    std::vector<std::uint8_t> mPresent;
    std::vector<std::uint32_t> mLayerTypeIds;
    std::vector<double> mFields;
};

} // namespace gpumem::data
