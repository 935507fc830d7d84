// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/ModelFolder.h"

#include "io/InputError.h"
#include "io/OutputPaths.h"
#include "io/RegularFile.h"
#include "io/Sha256.h"

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

// Seeds are written as signed 64-bit numbers; anything outside that range, or fractional, is refused
// before the conversion, which would otherwise be undefined.
std::uint64_t readSeed(const io::JsonValue &value)
{
    const double number = value.toNumber();
    if (!(number >= -9.2e18 && number < 1.8e19) || number != std::floor(number))
        throw io::InputError("\"seed\" must be a whole number that fits 64 bits");
    return number < 0 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(number))
                      : static_cast<std::uint64_t>(number);
}

void checkFileList(const io::JsonValue &metadata)
{
    const io::JsonValue *files = metadata.find("files");
    if (!files)
        throw io::InputError("model.json lacks the \"files\" list of digests");
    for (const auto &[name, record] : files->toObject()) {
        if (!isPlainFileName(name))
            throw io::InputError("\"files\" names " + io::quoteForMessage(name) +
                                 ", which is not a file of the folder");
        readWholeNumber(record.at("bytes"), 0, static_cast<std::int64_t>(maxModelFileBytes), "a file's size");
        const std::string &digest = record.at("sha256").toString();
        if (digest.size() != 64 || digest.find_first_not_of("0123456789abcdef") != std::string::npos)
            throw io::InputError("the SHA-256 of '" + name + "' must be 64 lowercase hexadecimal digits");
    }
}

} // namespace

std::vector<std::string> readStrings(const io::JsonValue &array)
{
    std::vector<std::string> texts;
    for (const auto &item : array.toArray())
        texts.push_back(item.toString());
    return texts;
}

std::vector<std::string> readStrings(const io::JsonValue &array, std::size_t maxCount, const std::string &what)
{
    if (array.toArray().size() > maxCount)
        throw io::InputError(what + " holds " + std::to_string(array.toArray().size()) + " names, more than the " +
                             std::to_string(maxCount) + " a model may have");
    return readStrings(array);
}

std::int64_t readWholeNumber(const io::JsonValue &value, std::int64_t minimum, std::int64_t maximum,
                             const std::string &what)
{
    const double number = value.toNumber();
    if (!(number >= static_cast<double>(minimum) && number <= static_cast<double>(maximum)) ||
        number != std::floor(number))
        throw io::InputError(what + " must be a whole number from " + std::to_string(minimum) + " to " +
                             std::to_string(maximum) + ", not " + io::quoteForMessage(std::to_string(number)));
    return static_cast<std::int64_t>(number);
}

void writeModelHeader(io::JsonWriter &json, const std::string &modelName)
{
    json.key("format").value(formatName);
    json.key("format_version").value(formatVersion);
    json.key("model").value(modelName);
}

void writeSchema(io::JsonWriter &json, const ModelSchema &schema)
{
    const data::FeatureEncoding &encoding = schema.encoding;
    json.key("schema").beginObject();
    json.key("target").value(schema.target);
    json.key("numeric").value(encoding.numericColumns);
    json.key("categorical").beginArray();
    for (const auto &categorical : encoding.categoricals) {
        json.beginObject();
        json.key("column").value(categorical.column);
        json.key("categories").value(categorical.categories);
        json.endObject();
    }
    json.endArray();
    json.key("sequence_column").value(encoding.sequenceColumn);
    json.key("layer_types").value(encoding.layerTypes);
    json.key("fields_per_layer").value(encoding.fieldsPerLayer);
    json.endObject();
}

io::JsonValue readModelMetadata(const std::string &directory)
{
    const std::string path = directory + "/model.json";
    io::JsonValue metadata = io::readJsonFile(path);
    try {
        if (!metadata.isObject() || !metadata.find("format") || metadata.at("format").toString() != formatName)
            throw io::InputError("not a gpumem model folder (model.json lacks \"format\": \"gpumem-model\")");
        const double version = metadata.at("format_version").toNumber();
        if (version == 1)
            throw io::InputError("saved by an older gpumem (model format 1, whose network weights are a TorchScript "
                                 "archive that can run code when loaded); train the model again with this gpumem to "
                                 "save it in format 2 (safetensors weights and file digests)");
        if (version != formatVersion)
            throw io::InputError("model format version " + io::quoteForMessage(std::to_string(version)) +
                                 " is not supported; this gpumem reads version " + std::to_string(formatVersion));
        metadata.at("model").toString();
        checkFileList(metadata);
    } catch (const io::InputError &error) {
        throw io::InputError(path, 0, 0, error.message());
    }
    return metadata;
}

std::string modelNameOf(const io::JsonValue &metadata)
{
    return metadata.at("model").toString();
}

ModelSchema readSchema(const io::JsonValue &metadata)
{
    const io::JsonValue &schema = metadata.at("schema");
    data::FeatureEncoding encoding;
    encoding.numericColumns = readStrings(schema.at("numeric"), maxModelColumns, "the schema's numeric columns");
    const auto &categoricals = schema.at("categorical").toArray();
    if (encoding.numericColumns.size() + categoricals.size() > maxModelColumns)
        throw io::InputError("the schema names more than " + std::to_string(maxModelColumns) + " columns");
    for (const auto &categorical : categoricals)
        encoding.categoricals.push_back(
            {categorical.at("column").toString(),
             readStrings(categorical.at("categories"), maxModelCategories,
                         "categorical column '" + categorical.at("column").toString() + "'")});
    encoding.sequenceColumn = schema.at("sequence_column").toString();
    encoding.layerTypes = readStrings(schema.at("layer_types"), maxModelLayerTypes, "the schema's layer types");
    encoding.fieldsPerLayer =
        static_cast<int>(readWholeNumber(schema.at("fields_per_layer"), 0, 64, "\"fields_per_layer\""));
    return {schema.at("target").toString(), encoding};
}

void readModelFolder(const io::JsonValue &metadata, const std::string &directory, Hyperparameters &hyperparameters,
                     std::uint64_t &seed, ModelSchema &schema,
                     const std::function<void(const io::JsonValue &fitted)> &readFitted)
{
    const std::string metadataPath = directory + "/model.json";
    try {
        hyperparameters.apply(metadata.at("hyperparameters"), metadataPath);
        seed = readSeed(metadata.at("seed"));
        schema = readSchema(metadata);
        readFitted(metadata.at("fitted"));
    } catch (const io::InputError &error) {
        if (!error.file().empty())
            throw;
        throw io::InputError(metadataPath, 0, 0, error.message());
    }
}

std::string readRecordedFile(const io::JsonValue &metadata, const std::string &directory, const std::string &name)
{
    const std::string path = directory + "/" + name;
    const io::JsonValue *record = metadata.at("files").find(name);
    if (!record)
        throw io::InputError(directory + "/model.json", 0, 0, "the \"files\" list does not record '" + name + "'");
    std::string content = io::readRegularFile(path, maxModelFileBytes);
    if (static_cast<double>(content.size()) != record->at("bytes").toNumber() ||
        io::sha256Hex(content) != record->at("sha256").toString())
        throw io::InputError(path, 0, 0,
                             "does not match the SHA-256 recorded in model.json: the file is damaged or comes from "
                             "another model");
    return content;
}

} // namespace gpumem::models
