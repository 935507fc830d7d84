// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/EncodingLimits.h"
#include "io/Json.h"
#include "models/Regressor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpumem::models {

// The parts of model.json every model folder shares, so that loadRegressor()
// can tell the models apart and each model reads the schema the same way:
//   {"format": "gpumem-model", "format_version": 2, "model": NAME,
//    "hyperparameters": {...}, "seed": S, "schema": {...}, "fitted": {...},
//    "files": {NAME: {"bytes": N, "sha256": HEX}}, "library_versions": {...}}
// A model folder is untrusted input: it may come from anyone. Reading it runs
// no code, every count is checked against the limits below before anything is
// sized by it, and every file beside model.json must match its recorded digest.

// What a model folder may hold at most: no more than training can produce
// (data/EncodingLimits.h) — columns of the schema, categories of one categorical
// column, distinct layer types with the shared "other" — and bytes of one file
// beside model.json.
constexpr std::size_t maxModelColumns = data::maxEncodedFeatures;
constexpr std::size_t maxModelCategories = data::maxEncodedFeatures;
constexpr std::size_t maxModelLayerTypes = data::maxLayerTypes + 1;
constexpr std::uint64_t maxModelFileBytes = 2ull << 30;

// The members that open every model.json and tell the models apart.
struct ModelHeader
{
    std::string model; // the registry name
};
// The JSON form of a header: {"format": "gpumem-model", "format_version": 2, "model": NAME}.
void to_json(io::Json &json, const ModelHeader &header);
// The JSON form of a schema: {"target", "numeric", "categorical", "sequence_column",
// "layer_types", "fields_per_layer"}. from_json() reads it within the limits
// above and throws io::InputError when it is malformed.
void to_json(io::Json &json, const ModelSchema &schema);
void from_json(const io::Json &json, ModelSchema &schema);

// Reads directory/model.json (a regular file of at most io::maxJsonFileBytes) and
// checks its format, version and file list. Throws io::InputError naming the file
// when it is missing or not a gpumem model folder of this version.
io::Json readModelMetadata(const std::string &directory);
// Returns the "model" member of metadata read by readModelMetadata().
std::string modelNameOf(const io::Json &metadata);
// Reads the "schema" member of metadata (from_json).
ModelSchema readSchema(const io::Json &metadata);

// Writes directory/model.json atomically (an interrupted save leaves the old
// folder or none), built as one tree and written once: header, "hyperparameters",
// "seed", "schema", then "fitted" as fittedState returns it (given the folder
// being written, for models that keep files of their own there), the members of
// extraMembers (an object; a key that writeModelFolder() writes itself throws
// std::invalid_argument), the digest of every such file, then
// "library_versions". A non-finite number anywhere refuses the save.
void writeModelFolder(const std::string &directory, const std::string &modelName,
                      const Hyperparameters &hyperparameters, std::uint64_t seed, const ModelSchema &schema,
                      const std::function<io::Json(const std::string &folder)> &fittedState,
                      const io::Json &extraMembers);

// Reads what writeModelFolder() wrote into hyperparameters, seed and schema,
// then hands the "fitted" member to readFitted. Errors name directory/model.json.
void readModelFolder(const io::Json &metadata, const std::string &directory, Hyperparameters &hyperparameters,
                     std::uint64_t &seed, ModelSchema &schema,
                     const std::function<void(const io::Json &fitted)> &readFitted);

// Returns the content of directory/name, a file the folder's "files" list records,
// after checking its size and SHA-256 against the record: a flipped bit or a file
// swapped in from another folder is refused with io::InputError naming the file.
std::string readRecordedFile(const io::Json &metadata, const std::string &directory, const std::string &name);

// Reads an array of strings of at most maxCount items; throws io::InputError
// naming what when it is longer or anything else.
std::vector<std::string> readStrings(const io::Json &array, std::size_t maxCount, const std::string &what);

} // namespace gpumem::models
