#pragma once

#include "io/JsonValue.h"
#include "io/JsonWriter.h"
#include "models/Regressor.h"

#include <cstdint>
#include <functional>
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

// Writes directory/model.json atomically (an interrupted save leaves the old
// folder or none): header, "hyperparameters", "seed", "schema", then "fitted"
// as writeFitted writes it (given the folder being written, for models that
// keep files of their own there), then "library_versions".
void writeModelFolder(const std::string &directory, const std::string &modelName,
                      const Hyperparameters &hyperparameters, std::uint64_t seed, const ModelSchema &schema,
                      const std::function<void(io::JsonWriter &, const std::string &folder)> &writeFitted);
// Reads what writeModelFolder() wrote into hyperparameters, seed and schema,
// then hands the "fitted" member to readFitted. Errors name directory/model.json.
void readModelFolder(const io::JsonValue &metadata, const std::string &directory, Hyperparameters &hyperparameters,
                     std::uint64_t &seed, ModelSchema &schema,
                     const std::function<void(const io::JsonValue &fitted)> &readFitted);

// Reads an array of strings. Throws io::InputError when it is anything else.
std::vector<std::string> readStrings(const io::JsonValue &array);

} // namespace gpumem::models
