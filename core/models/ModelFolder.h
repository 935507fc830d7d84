#pragma once

#include "io/JsonValue.h"
#include "io/JsonWriter.h"
#include "models/Regressor.h"

#include <string>
#include <vector>

namespace gpumem::models {

// The parts of model.json every model folder shares, so that loadRegressor()
// can tell the models apart and each model reads the schema the same way:
//   {"format": "gpumem-model", "format_version": 1, "model": NAME,
//    "hyperparameters": {...}, "seed": S, "schema": {...}, ..., "library_versions": {...}}

// Writes the "format", "format_version" and "model" members of an open object.
void writeModelHeader(io::JsonWriter &json, const std::string &modelName);
// Writes "schema": {"target", "numeric", "categorical", "sequence_column", "layer_types", "fields_per_layer"}.
void writeSchema(io::JsonWriter &json, const ModelSchema &schema);

// Reads directory/model.json and checks its format and version. Throws
// io::InputError naming the file when it is missing or not a gpumem model folder.
io::JsonValue readModelMetadata(const std::string &directory);
// Returns the "model" member of metadata read by readModelMetadata().
std::string modelNameOf(const io::JsonValue &metadata);
// Reads the "schema" member written by writeSchema(). Throws io::InputError when malformed.
ModelSchema readSchema(const io::JsonValue &metadata);

// Reads an array of strings. Throws io::InputError when it is anything else.
std::vector<std::string> readStrings(const io::JsonValue &array);

} // namespace gpumem::models
