// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::io {

// Streams one JSON document to an std::ostream. Strings are escaped and invalid
// UTF-8 is replaced by U+FFFD, so the output always parses; non-finite numbers
// are written as null. Doubles use the shortest text that reads back to the same
// value. Misuse (a value where a key is due, unbalanced ends) throws std::logic_error.
class JsonWriter
{
  public:
    // indent 0 writes the whole document on one line (JSON Lines).
    explicit JsonWriter(std::ostream &out, int indent = 2);

    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();
    JsonWriter &key(std::string_view name);

    JsonWriter &value(std::string_view text);
    JsonWriter &value(const char *text) { return value(std::string_view(text)); }
    JsonWriter &value(const std::string &text) { return value(std::string_view(text)); }
    JsonWriter &value(double number);
    JsonWriter &value(std::int64_t number);
    JsonWriter &value(int number) { return value(static_cast<std::int64_t>(number)); }
    // Writes an unsigned integer exactly, up to 2^64 - 1 (sizes, seeds).
    JsonWriter &value(std::uint64_t number);
    JsonWriter &value(bool flag);
    JsonWriter &null();

    // Writes a whole JSON value (as io::Json holds it) in this writer's layout, so a
    // record built with nlohmann reads the same as one streamed member by member.
    JsonWriter &value(const nlohmann::ordered_json &tree);

    // Writes a whole array of strings.
    JsonWriter &value(const std::vector<std::string> &texts);

    // From now on, a non-finite number throws io::InputError instead of becoming
    // null: for files that must never hold one, such as a model folder's model.json.
    void refuseNonFiniteNumbers() { mRefuseNonFinite = true; }

  private:
    enum class Scope
    {
        Object,
        Array
    };
    void beforeValue();
    void openScope(Scope scope, char bracket);
    void closeScope(char bracket);
    void newline();
    void writeString(std::string_view text);

    std::ostream &mOut;
    int mIndent;
    std::vector<Scope> mScopes;
    bool mFirstInScope = true;
    bool mKeyPending = false;
    bool mRefuseNonFinite = false;
};

} // namespace gpumem::io
