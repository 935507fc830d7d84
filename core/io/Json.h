// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::io {

// One JSON document or value. Objects keep their keys in insertion order;
// integers stay integers (up to 64 bits, signed or unsigned), so a seed or a
// byte count reads back exactly.
using Json = nlohmann::ordered_json;

// The deepest nesting of arrays and objects that parseJson accepts.
inline constexpr int maxJsonDepth = 256;

// Parses one JSON document (RFC 8259, strictly: no comments, trailing commas,
// NaN/Infinity; strings must be valid UTF-8 and lone surrogates are rejected; a
// leading UTF-8 byte-order mark is skipped). A key repeated within one object
// and nesting deeper than maxJsonDepth arrays/objects are rejected. Errors throw
// InputError(sourceName, line, column, message) with the 1-based line and
// column (in characters) of the offending text.
Json parseJson(std::string_view text, const std::string &sourceName);

// Reads (at most maxJsonFileBytes) and parses the whole file at path; throws
// InputError(path, 0, 0, …) when it cannot be read, and parse errors as parseJson does.
Json readJsonFile(const std::string &path);

// Typed access for readers of files from users. Each throws InputError without
// a location ("expected a number, found a string", "missing key 'x'"); readers
// add the file, and a prefix naming the member where that helps.

// Returns the name of the value's kind with its article ("a number", "an object", "null").
const char *describeType(const Json &value);
// Returns the boolean; throws "expected a boolean, found …" otherwise.
bool toBool(const Json &value);
// Returns the number (integer or not) as a double; throws "expected a number, found …" otherwise.
double toNumber(const Json &value);
// Returns the string (UTF-8); throws "expected a string, found …" otherwise.
const std::string &toString(const Json &value);
// Returns value itself after checking it is an array, for iterating over its items.
const Json &toArray(const Json &value);
// Returns value itself after checking it is an object, for iterating over its items().
const Json &toObject(const Json &value);
// Returns the member named key, or nullptr when the object has none; throws when value is not an object.
const Json *findMember(const Json &object, std::string_view key);
// Returns the member named key; throws "missing key 'x'" when the object has none.
const Json &member(const Json &object, std::string_view key);
// Returns the number stored under key, or fallback when the key is absent or
// null; throws "key 'x': expected a number, found …" when it holds something else.
double numberOr(const Json &object, std::string_view key, double fallback);
// Returns the items of an array of strings; throws when it is anything else.
std::vector<std::string> toStrings(const Json &array);
// Returns a whole number in [minimum, maximum]; throws "WHAT must be a whole number
// from MIN to MAX, not …" otherwise. Integers are compared exactly, without a double.
std::int64_t toWholeNumber(const Json &value, std::int64_t minimum, std::int64_t maximum, const std::string &what);
// Returns a seed: any whole number that fits 64 bits, a negative one as its two's
// complement; throws "\"seed\" must be a whole number that fits 64 bits" otherwise.
std::uint64_t toSeed(const Json &value);

} // namespace gpumem::io
