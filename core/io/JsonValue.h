// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace gpumem::io {

class JsonWriter;

// One JSON value: null, a boolean, a number (held as a double), a string (UTF-8),
// an array or an object. Objects keep their keys in insertion order and never hold
// a key twice. Reading the wrong type throws InputError naming both types, so code
// reading configuration files can let that error reach the user.
class JsonValue
{
  public:
    // The kinds of value, in the order of the variant alternatives.
    enum class Type
    {
        Null,
        Bool,
        Number,
        String,
        Array,
        Object
    };

    // The items of an array.
    using Array = std::vector<JsonValue>;
    // The members of an object, in insertion order.
    using Object = std::vector<std::pair<std::string, JsonValue>>;

    // Constructs null.
    JsonValue() = default;
    // Constructs null.
    JsonValue(std::nullptr_t) {}
    // Constructs a boolean.
    JsonValue(bool flag)
        : mValue(flag)
    {
    }
    // Constructs a number.
    JsonValue(double number)
        : mValue(number)
    {
    }
    // Constructs a number from any integer type except bool (converted to double,
    // exact up to 2^53).
    template <typename Integer,
              std::enable_if_t<std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>, int> = 0>
    JsonValue(Integer number)
        : mValue(static_cast<double>(number))
    {
    }
    // Constructs a string.
    JsonValue(std::string text)
        : mValue(std::move(text))
    {
    }
    // Constructs a string (and keeps string literals from turning into booleans).
    JsonValue(const char *text)
        : mValue(std::string(text))
    {
    }

    // Constructs an array holding items.
    explicit JsonValue(Array items)
        : mValue(std::move(items))
    {
    }
    // Constructs an object holding members in their order; throws std::invalid_argument
    // when a key appears twice.
    explicit JsonValue(Object members);

    // Returns an empty array.
    static JsonValue array();
    // Returns an empty object.
    static JsonValue object();

    // Returns the kind of value held.
    Type type() const { return static_cast<Type>(mValue.index()); }
    // Returns whether the value is null.
    bool isNull() const { return type() == Type::Null; }
    // Returns whether the value is a boolean.
    bool isBool() const { return type() == Type::Bool; }
    // Returns whether the value is a number.
    bool isNumber() const { return type() == Type::Number; }
    // Returns whether the value is a string.
    bool isString() const { return type() == Type::String; }
    // Returns whether the value is an array.
    bool isArray() const { return type() == Type::Array; }
    // Returns whether the value is an object.
    bool isObject() const { return type() == Type::Object; }

    // Returns the boolean; throws InputError ("expected a boolean, found a number") otherwise.
    bool toBool() const;
    // Returns the number; throws InputError ("expected a number, found a string") otherwise.
    double toNumber() const;
    // Returns the string (UTF-8); throws InputError ("expected a string, found null") otherwise.
    const std::string &toString() const;
    // Returns the items; throws InputError ("expected an array, found an object") otherwise.
    const Array &toArray() const;
    // Returns the members in order; throws InputError ("expected an object, found an array") otherwise.
    const Object &toObject() const;

    // Returns the member named key, or nullptr when the object has none; throws
    // InputError when this is not an object.
    const JsonValue *find(std::string_view key) const;
    // Returns the member named key; throws InputError ("missing key 'x'") when the
    // object has none, or when this is not an object.
    const JsonValue &at(std::string_view key) const;
    // Returns the number stored under key, or fallback when the key is absent or null;
    // throws InputError when the member holds something else than a number.
    double numberOr(std::string_view key, double fallback) const;

    // Appends item to an array; throws std::logic_error when this is not an array.
    void push_back(JsonValue item);
    // Sets the member named key, replacing the value of an existing member in place
    // or appending a new one; throws std::logic_error when this is not an object.
    void set(std::string key, JsonValue item);

    // Returns whether both hold the same kind and value; objects must also have
    // their keys in the same order.
    friend bool operator==(const JsonValue &left, const JsonValue &right) { return left.mValue == right.mValue; }
    // Returns whether the two differ in kind or value.
    friend bool operator!=(const JsonValue &left, const JsonValue &right) { return !(left == right); }

  private:
    std::variant<std::nullptr_t, bool, double, std::string, Array, Object> mValue;
};

// Returns the name of a kind with its article ("a number", "an object", "null"), as
// used in error messages.
const char *describeType(JsonValue::Type type);

// The deepest nesting of arrays and objects that parseJson accepts.
inline constexpr int maxJsonDepth = 256;

// Parses one JSON document (RFC 8259, strictly: no comments, trailing commas,
// NaN/Infinity or leading zeros; strings must be valid UTF-8 and lone surrogates
// are rejected; a leading UTF-8 byte-order mark is skipped). Nesting deeper than
// maxJsonDepth arrays/objects is rejected. Errors throw InputError(sourceName, line,
// column, message) with the 1-based line and column (in characters) of the offending text.
JsonValue parseJson(std::string_view text, const std::string &sourceName);

// Reads and parses the whole file at path; throws InputError(path, 0, 0, …) when
// it cannot be read, and parse errors as parseJson does.
JsonValue readJsonFile(const std::string &path);

// Writes value through writer (non-finite numbers become null, as JsonWriter does),
// so that parsing the output gives back an equal value.
void writeJson(JsonWriter &writer, const JsonValue &value);

} // namespace gpumem::io
