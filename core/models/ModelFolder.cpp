#include "models/ModelFolder.h"

#include "io/InputError.h"

namespace gpumem::models {

namespace {

constexpr const char *formatName = "gpumem-model";
constexpr int formatVersion = 1;

} // namespace

std::vector<std::string> readStrings(const io::JsonValue &array)
{
    std::vector<std::string> texts;
    for (const auto &item : array.toArray())
        texts.push_back(item.toString());
    return texts;
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
        if (metadata.at("format_version").toNumber() != formatVersion)
            throw io::InputError("model format version " + std::to_string(metadata.at("format_version").toNumber()) +
                                 " is not supported; this gpumem reads version " + std::to_string(formatVersion));
        metadata.at("model").toString();
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
    encoding.numericColumns = readStrings(schema.at("numeric"));
    for (const auto &categorical : schema.at("categorical").toArray())
        encoding.categoricals.push_back(
            {categorical.at("column").toString(), readStrings(categorical.at("categories"))});
    encoding.sequenceColumn = schema.at("sequence_column").toString();
    encoding.layerTypes = readStrings(schema.at("layer_types"));
    const double fields = schema.at("fields_per_layer").toNumber();
    if (!(fields >= 0 && fields <= 64))
        throw io::InputError("\"fields_per_layer\" must be between 0 and 64");
    encoding.fieldsPerLayer = static_cast<int>(fields);
    return {schema.at("target").toString(), encoding};
}

} // namespace gpumem::models
