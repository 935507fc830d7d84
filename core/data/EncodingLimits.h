// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Table.h"

#include <cstddef>
#include <string>
#include <vector>

namespace gpumem::data {

// The most columns the encoded feature matrix may have (numeric features, one-hot
// categories and layer-sequence summaries together). The network makes one token
// of each, so its memory grows with the square of this number.
constexpr std::size_t maxEncodedFeatures = 4096;

// The most layer types the encoder counts one by one; rarer types share one
// "other" count (and the network's vocabulary ends there too).
constexpr std::size_t maxLayerTypes = 256;

// The most bytes of a name a model keeps: a used column's name, a category of a
// categorical feature, a layer type. A model folder keeps every such name in
// model.json, which loading caps at 64 MiB (io::maxJsonFileBytes); at this
// length even the most names the limits above allow (columns and categories up
// to twice maxEncodedFeatures, the layer types twice) fill less than 54 MB when
// each byte is escaped as \u00XX, which leaves room for the rest of the file.
constexpr std::size_t maxNameBytes = 1024;

// How many encoded features each kind of input contributes.
struct EncodedWidth
{
    std::size_t numeric = 0;
    std::size_t oneHot = 0;
    std::size_t sequence = 0; // length, layer-type counts, sum and maximum of each field

    std::size_t total() const { return numeric + oneHot + sequence; }
};

// Returns the summary features of a layer sequence with layerTypes distinct
// types (capped at maxLayerTypes plus one "other") and fieldsPerLayer numbers per layer.
std::size_t sequenceFeatureCount(std::size_t layerTypes, int fieldsPerLayer);

// Throws io::InputError naming source, the limit and the counts when width
// exceeds maxEncodedFeatures.
void checkEncodedWidth(const std::string &source, const EncodedWidth &width);

// Checks, before anything is encoded, that the used columns of the given rows
// of table stay within maxEncodedFeatures and that their names, categories and
// layer types are at most maxNameBytes long (throws io::InputError naming the
// column, and the line of a long value, otherwise), and returns a warning for a
// layer-sequence column whose layer types exceed maxLayerTypes.
std::vector<std::string> checkEncodingLimits(const Table &table, const std::vector<ColumnRole> &roles,
                                             const std::vector<std::size_t> &rows);

} // namespace gpumem::data
