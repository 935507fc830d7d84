// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/EncodingLimits.h"

#include "io/InputError.h"

namespace gpumem::data {

namespace {

// Distinct codes in rows of a categorical column (missing cells have none).
std::size_t distinctCategories(const Column &column, const std::vector<std::size_t> &rows)
{
    std::vector<bool> seen(column.categories.size(), false);
    std::size_t distinct = 0;
    for (std::size_t row : rows) {
        const std::int32_t code = column.codes[row];
        if (code >= 0 && !seen[static_cast<std::size_t>(code)]) {
            seen[static_cast<std::size_t>(code)] = true;
            ++distinct;
        }
    }
    return distinct;
}

std::size_t distinctLayerTypes(const SequenceColumn &sequences, const std::vector<std::size_t> &rows)
{
    std::vector<bool> seen(sequences.layerTypes().size(), false);
    std::size_t distinct = 0;
    for (std::size_t row : rows) {
        for (std::size_t layer = sequences.layerBegin(row); layer < sequences.layerEnd(row); ++layer) {
            const std::uint32_t type = sequences.layerType(layer);
            if (!seen[type]) {
                seen[type] = true;
                ++distinct;
            }
        }
    }
    return distinct;
}

// Throws io::InputError when name, the name of a column or of one of its values, is longer than maxNameBytes.
void checkNameLength(const std::string &source, std::int64_t line, std::size_t columnIndex, const std::string &what,
                     const std::string &name)
{
    if (name.size() <= maxNameBytes)
        return;
    throw io::InputError(source, line, static_cast<std::int64_t>(columnIndex) + 1,
                         what + " " + io::quoteForMessage(name, 40) + " is " + std::to_string(name.size()) +
                             " bytes long, more than the " + std::to_string(maxNameBytes) +
                             " a model keeps in its model.json; shorten it or leave the column out with " +
                             io::parameter("ignored"));
}

// Checks the names a model of column would keep: its own, its categories or its layer types in rows.
void checkNamesOf(const std::string &source, const Table &table, std::size_t columnIndex, ColumnRole role,
                  const std::vector<std::size_t> &rows)
{
    const Column &column = table.column(columnIndex);
    checkNameLength(source, 0, columnIndex, "the name of column " + std::to_string(columnIndex + 1), column.name);
    const std::string where = "in column " + io::quoteForMessage(column.name, 60);
    if (role == ColumnRole::Feature && column.type == ColumnType::Categorical) {
        for (std::size_t row : rows)
            if (const std::int32_t code = column.codes[row]; code >= 0)
                checkNameLength(source, table.rowLine(row), columnIndex, "the category " + where,
                                column.categories[static_cast<std::size_t>(code)]);
    } else if (role == ColumnRole::Sequence) {
        const SequenceColumn &sequences = column.sequences;
        for (std::size_t row : rows)
            for (std::size_t layer = sequences.layerBegin(row); layer < sequences.layerEnd(row); ++layer)
                checkNameLength(source, table.rowLine(row), columnIndex, "the layer type " + where,
                                sequences.layerTypes()[sequences.layerType(layer)]);
    }
}

} // namespace

std::size_t sequenceFeatureCount(std::size_t layerTypes, int fieldsPerLayer)
{
    const std::size_t counted = layerTypes > maxLayerTypes ? maxLayerTypes + 1 : layerTypes;
    return 1 + counted + 2 * static_cast<std::size_t>(fieldsPerLayer);
}

void checkEncodedWidth(const std::string &source, const EncodedWidth &width)
{
    if (width.total() <= maxEncodedFeatures)
        return;
    throw io::InputError(source, 0, 0,
                         "the used columns encode into " + std::to_string(width.total()) +
                             " feature columns, more than the limit of " + std::to_string(maxEncodedFeatures) + " (" +
                             std::to_string(width.numeric) + " numeric, " + std::to_string(width.oneHot) +
                             " one-hot categories, " + std::to_string(width.sequence) +
                             " layer-sequence summaries); leave columns out with " + io::parameter("features") +
                             " or " + io::parameter("ignored"));
}

std::vector<std::string> checkEncodingLimits(const Table &table, const std::vector<ColumnRole> &roles,
                                             const std::vector<std::size_t> &rows)
{
    std::vector<std::string> warnings;
    EncodedWidth width;
    for (std::size_t i = 0; i < table.columnCount(); ++i) {
        const Column &column = table.column(i);
        if (roles.at(i) != ColumnRole::Ignored)
            checkNamesOf(table.source(), table, i, roles.at(i), rows);
        if (roles.at(i) == ColumnRole::Feature) {
            if (column.type == ColumnType::Numeric)
                ++width.numeric;
            else
                width.oneHot += distinctCategories(column, rows);
        } else if (roles.at(i) == ColumnRole::Sequence) {
            const std::size_t types = distinctLayerTypes(column.sequences, rows);
            width.sequence += sequenceFeatureCount(types, column.sequences.fieldsPerLayer());
            if (types > maxLayerTypes)
                warnings.push_back("column " + io::quoteForMessage(column.name, 60) + " has " + std::to_string(types) +
                                   " layer types; the " + std::to_string(maxLayerTypes) +
                                   " most frequent are kept and the other " + std::to_string(types - maxLayerTypes) +
                                   " are counted as one 'other' type");
        }
    }
    checkEncodedWidth(table.source(), width);
    return warnings;
}

} // namespace gpumem::data
