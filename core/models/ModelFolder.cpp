// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/ModelFolder.h"

#include "io/InputError.h"
#include "io/OutputPaths.h"
#include "io/RegularFile.h"
#include "io/Sha256.h"

#include <algorithm>
#include <cmath>

namespace gpumem::models {

namespace {

constexpr const char *formatName = io::modelFolderFormat;
constexpr int formatVersion = 2;

// A name in the "files" list must stay inside the folder: one plain file name.
bool isPlainFileName(const std::string &name)
{
    return !name.empty() && name != "." && name != ".." && name != "model.json" &&
           name.find('/') == std::string::npos && name.find('\\') == std::string::npos &&
           name.find('\0') == std::string::npos;
}

// Seeds are written as unsigned 64-bit integers and read back exactly. Older
// folders hold seeds at or above 2^63 as negative signed numbers, which map back
// to the same bits; a fraction or anything outside 64 bits is refused.
void checkFileList(const io::Json &metadata)
{
    const io::Json *files = io::findMember(metadata, "files");
    if (!files)
        throw io::InputError("model.json lacks the \"files\" list of digests");
    for (const auto &[name, record] : io::toObject(*files).items()) {
        if (!isPlainFileName(name))
            throw io::InputError("\"files\" names " + io::quoteForMessage(name) +
                                 ", which is not a file of the folder");
        io::toWholeNumber(io::member(record, "bytes"), 0, static_cast<std::int64_t>(maxModelFileBytes),
                          "a file's size");
        const std::string &digest = io::toString(io::member(record, "sha256"));
        if (digest.size() != 64 || digest.find_first_not_of("0123456789abcdef") != std::string::npos)
            throw io::InputError("the SHA-256 of '" + name + "' must be 64 lowercase hexadecimal digits");
    }
}

} // namespace

std::vector<std::string> readStrings(const io::Json &array, std::size_t maxCount, const std::string &what)
{
    if (io::toArray(array).size() > maxCount)
        throw io::InputError(what + " holds " + std::to_string(array.size()) + " names, more than the " +
                             std::to_string(maxCount) + " a model may have");
    return io::toStrings(array);
}

void to_json(io::Json &json, const ModelHeader &header)
{
    json = {{"format", formatName}, {"format_version", formatVersion}, {"model", header.model}};
}

void to_json(io::Json &json, const ModelSchema &schema)
{
    const data::FeatureEncoding &encoding = schema.encoding;
    io::Json categoricals = io::Json::array();
    for (const auto &categorical : encoding.categoricals)
        categoricals.push_back({{"column", categorical.column}, {"categories", categorical.categories}});
    json = {{"target", schema.target},
            {"numeric", encoding.numericColumns},
            {"categorical", std::move(categoricals)},
            {"sequence_column", encoding.sequenceColumn},
            {"layer_types", encoding.layerTypes},
            {"fields_per_layer", encoding.fieldsPerLayer}};
    if (!encoding.batchColumn.empty())
        json["batch_column"] = encoding.batchColumn;
    if (!encoding.ranges.empty()) {
        io::Json ranges = io::Json::array();
        for (const auto &range : encoding.ranges)
            ranges.push_back({range.minimum, range.maximum});
        json["ranges"] = std::move(ranges);
    }
}

io::Json readModelMetadata(const std::string &directory)
{
    const std::string path = directory + "/model.json";
    io::Json metadata = io::readJsonFile(path);
    try {
        if (!metadata.is_object() || !io::findMember(metadata, "format") ||
            io::toString(io::member(metadata, "format")) != formatName)
            throw io::InputError("not a gpumem model folder (model.json lacks \"format\": \"gpumem-model\")");
        const double version = io::toNumber(io::member(metadata, "format_version"));
        if (version == 1)
            throw io::InputError("saved by an older gpumem (model format 1, whose network weights are a TorchScript "
                                 "archive that can run code when loaded); train the model again with this gpumem to "
                                 "save it in format 2 (safetensors weights and file digests)");
        if (version != formatVersion)
            throw io::InputError("model format version " + io::quoteForMessage(std::to_string(version)) +
                                 " is not supported; this gpumem reads version " + std::to_string(formatVersion));
        io::toString(io::member(metadata, "model"));
        checkFileList(metadata);
    } catch (const io::InputError &error) {
        throw io::InputError(path, 0, 0, error.markedMessage());
    }
    return metadata;
}

std::string modelNameOf(const io::Json &metadata)
{
    return io::toString(io::member(metadata, "model"));
}

namespace {

// The training range of each encoded column: [minimum, maximum] pairs of finite
// numbers, one per column the schema encodes, minimum never above maximum.
std::vector<data::FeatureRange> readRanges(const io::Json &json, std::size_t encodedColumns)
{
    const io::Json &pairs = io::toArray(json);
    if (pairs.size() != encodedColumns)
        throw io::InputError("the schema keeps " + std::to_string(pairs.size()) + " feature ranges for " +
                             std::to_string(encodedColumns) + " encoded features");
    std::vector<data::FeatureRange> ranges;
    ranges.reserve(pairs.size());
    for (const auto &pair : pairs) {
        const io::Json &bounds = io::toArray(pair);
        if (bounds.size() != 2)
            throw io::InputError("a feature range is [minimum, maximum], not " + std::to_string(bounds.size()) +
                                 " numbers");
        const data::FeatureRange range{io::toNumber(bounds[0]), io::toNumber(bounds[1])};
        if (!std::isfinite(range.minimum) || !std::isfinite(range.maximum) || range.minimum > range.maximum)
            throw io::InputError("a feature range must be two finite numbers, the smaller first");
        ranges.push_back(range);
    }
    return ranges;
}

} // namespace

void from_json(const io::Json &schema, ModelSchema &result)
{
    data::FeatureEncoding encoding;
    encoding.numericColumns =
        readStrings(io::member(schema, "numeric"), maxModelColumns, "the schema's numeric columns");
    const io::Json &categoricals = io::toArray(io::member(schema, "categorical"));
    if (encoding.numericColumns.size() + categoricals.size() > maxModelColumns)
        throw io::InputError("the schema names more than " + std::to_string(maxModelColumns) + " columns");
    for (const auto &categorical : categoricals) {
        const std::string &column = io::toString(io::member(categorical, "column"));
        encoding.categoricals.push_back({column, readStrings(io::member(categorical, "categories"), maxModelCategories,
                                                             "categorical column '" + column + "'")});
    }
    encoding.sequenceColumn = io::toString(io::member(schema, "sequence_column"));
    encoding.layerTypes =
        readStrings(io::member(schema, "layer_types"), maxModelLayerTypes, "the schema's layer types");
    encoding.fieldsPerLayer =
        static_cast<int>(io::toWholeNumber(io::member(schema, "fields_per_layer"), 0, 64, "\"fields_per_layer\""));
    // Optional: folders saved before the product of activations and batch size was encoded have none.
    if (const io::Json *batch = io::findMember(schema, "batch_column")) {
        encoding.batchColumn = io::toString(*batch);
        const auto &numeric = encoding.numericColumns;
        if (std::find(numeric.begin(), numeric.end(), encoding.batchColumn) == numeric.end() ||
            encoding.sequenceColumn.empty() || encoding.fieldsPerLayer < 1)
            throw io::InputError("the schema's \"batch_column\" " + io::quoteForMessage(encoding.batchColumn, 60) +
                                 " is not one of its numeric columns next to a layer sequence");
    }
    // Optional: folders saved before the ranges were kept have none, and predict without the extrapolation check.
    if (const io::Json *ranges = io::findMember(schema, "ranges"))
        encoding.ranges = readRanges(*ranges, data::FeatureEncoder(encoding).featureNames().size());
    result = {io::toString(io::member(schema, "target")), encoding};
}

ModelSchema readSchema(const io::Json &metadata)
{
    return io::member(metadata, "schema").get<ModelSchema>();
}

void readModelFolder(const io::Json &metadata, const std::string &directory, Hyperparameters &hyperparameters,
                     std::uint64_t &seed, ModelSchema &schema,
                     const std::function<void(const io::Json &fitted)> &readFitted)
{
    const std::string metadataPath = directory + "/model.json";
    try {
        hyperparameters.apply(io::member(metadata, "hyperparameters"), metadataPath);
        seed = io::toSeed(io::member(metadata, "seed"));
        schema = readSchema(metadata);
        readFitted(io::member(metadata, "fitted"));
    } catch (const io::InputError &error) {
        if (!error.file().empty())
            throw;
        throw io::InputError(metadataPath, 0, 0, error.markedMessage());
    }
}

std::string readRecordedFile(const io::Json &metadata, const std::string &directory, const std::string &name)
{
    const std::string path = directory + "/" + name;
    const io::Json *record = io::findMember(io::member(metadata, "files"), name);
    if (!record)
        throw io::InputError(directory + "/model.json", 0, 0, "the \"files\" list does not record '" + name + "'");
    std::string content = io::readRegularFile(path, maxModelFileBytes);
    const auto recordedBytes = static_cast<std::uint64_t>(io::toWholeNumber(
        io::member(*record, "bytes"), 0, static_cast<std::int64_t>(maxModelFileBytes), "a file's size"));
    if (content.size() != recordedBytes || io::sha256Hex(content) != io::toString(io::member(*record, "sha256")))
        throw io::InputError(path, 0, 0,
                             "does not match the SHA-256 recorded in model.json: the file is damaged or comes from "
                             "another model");
    return content;
}

} // namespace gpumem::models
