// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/JsonWriter.h"

#include "io/InputError.h"
#include "io/Json.h"
#include "io/Utf8.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace gpumem::io {

JsonWriter::JsonWriter(std::ostream &out, int indent)
    : mOut(out)
    , mIndent(indent)
{
}

void JsonWriter::newline()
{
    if (mIndent <= 0)
        return;
    mOut << '\n';
    for (std::size_t level = 0; level < mScopes.size() * static_cast<std::size_t>(mIndent); ++level)
        mOut << ' ';
}

void JsonWriter::beforeValue()
{
    if (mScopes.empty())
        return;
    if (mScopes.back() == Scope::Object) {
        if (!mKeyPending)
            throw std::logic_error("JsonWriter: a value inside an object needs a key first");
        mKeyPending = false;
        return;
    }
    if (!mFirstInScope)
        mOut << ',';
    mFirstInScope = false;
    newline();
}

void JsonWriter::openScope(Scope scope, char bracket)
{
    beforeValue();
    mOut << bracket;
    mScopes.push_back(scope);
    mFirstInScope = true;
}

// The caller has checked that the innermost scope is the one being closed.
void JsonWriter::closeScope(char bracket)
{
    mScopes.pop_back();
    if (!mFirstInScope)
        newline();
    mOut << bracket;
    mFirstInScope = false;
}

JsonWriter &JsonWriter::beginObject()
{
    openScope(Scope::Object, '{');
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    if (mScopes.empty() || mScopes.back() != Scope::Object || mKeyPending)
        throw std::logic_error("JsonWriter: endObject without a matching beginObject");
    closeScope('}');
    if (mScopes.empty() && mIndent > 0)
        mOut << '\n';
    return *this;
}

JsonWriter &JsonWriter::beginArray()
{
    openScope(Scope::Array, '[');
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    if (mScopes.empty() || mScopes.back() != Scope::Array)
        throw std::logic_error("JsonWriter: endArray without a matching beginArray");
    closeScope(']');
    return *this;
}

JsonWriter &JsonWriter::key(std::string_view name)
{
    if (mScopes.empty() || mScopes.back() != Scope::Object || mKeyPending)
        throw std::logic_error("JsonWriter: a key is only allowed directly inside an object");
    if (!mFirstInScope)
        mOut << ',';
    mFirstInScope = false;
    newline();
    writeString(name);
    mOut << (mIndent > 0 ? ": " : ":");
    mKeyPending = true;
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view text)
{
    beforeValue();
    writeString(text);
    return *this;
}

JsonWriter &JsonWriter::value(double number)
{
    if (!std::isfinite(number)) {
        if (mRefuseNonFinite)
            throw InputError("holds a non-finite number (" + std::to_string(number) + "), which it must not");
        return null();
    }
    beforeValue();
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
    mOut.write(buffer, result.ptr - buffer);
    return *this;
}

JsonWriter &JsonWriter::value(std::int64_t number)
{
    beforeValue();
    mOut << number;
    return *this;
}

JsonWriter &JsonWriter::value(std::uint64_t number)
{
    beforeValue();
    mOut << number;
    return *this;
}

JsonWriter &JsonWriter::value(const Json &tree)
{
    switch (tree.type()) {
    case Json::value_t::null: return null();
    case Json::value_t::boolean: return value(tree.get<bool>());
    case Json::value_t::number_integer: return value(tree.get<std::int64_t>());
    case Json::value_t::number_unsigned: return value(tree.get<std::uint64_t>());
    case Json::value_t::number_float: return value(tree.get<double>());
    case Json::value_t::string: return value(std::string_view(tree.get_ref<const std::string &>()));
    case Json::value_t::array:
        beginArray();
        for (const Json &item : tree)
            value(item);
        return endArray();
    case Json::value_t::object:
        beginObject();
        for (const auto &[name, item] : tree.items()) {
            key(name);
            value(item);
        }
        return endObject();
    default: throw std::logic_error("JsonWriter: binary values have no JSON text");
    }
}

JsonWriter &JsonWriter::value(bool flag)
{
    beforeValue();
    mOut << (flag ? "true" : "false");
    return *this;
}

JsonWriter &JsonWriter::null()
{
    beforeValue();
    mOut << "null";
    return *this;
}

JsonWriter &JsonWriter::value(const std::vector<std::string> &texts)
{
    beginArray();
    for (const auto &text : texts)
        value(text);
    return endArray();
}

void JsonWriter::writeString(std::string_view text)
{
    static constexpr char hexDigits[] = "0123456789abcdef";
    mOut << '"';
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x80) {
            const std::size_t length = validUtf8Length(text, i);
            if (length == 0) {
                mOut << "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
                ++i;
            } else {
                mOut.write(text.data() + i, static_cast<std::streamsize>(length));
                i += length;
            }
            continue;
        }
        switch (byte) {
        case '"': mOut << "\\\""; break;
        case '\\': mOut << "\\\\"; break;
        case '\n': mOut << "\\n"; break;
        case '\r': mOut << "\\r"; break;
        case '\t': mOut << "\\t"; break;
        default:
            if (byte < 0x20)
                mOut << "\\u00" << hexDigits[byte >> 4] << hexDigits[byte & 0xF];
            else
                mOut << static_cast<char>(byte);
        }
        ++i;
    }
    mOut << '"';
}

} // namespace gpumem::io
