// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes to the layer-sequence parser and the compact column
// that stores its result. Only LayerSequenceError and the column's
// std::invalid_argument (inconsistent field counts) may come out.
#include "data/LayerSequenceParser.h"
#include "data/SequenceColumn.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    std::vector<gpumem::data::LayerTuple> layers;
    try {
        gpumem::data::parseLayerSequence(text, layers);
        // The parser's bounds hold for whatever it accepts.
        if (layers.size() > gpumem::data::maxLayersPerSequence)
            std::abort();
        for (const auto &layer : layers)
            if (layer.fields.size() > gpumem::data::maxFieldsPerLayer)
                std::abort();
        gpumem::data::SequenceColumn column;
        column.appendRow(layers);
        column.selectRows({0, 0});
    } catch (const gpumem::data::LayerSequenceError &) {
    } catch (const std::invalid_argument &) {
    }
    return 0;
}
