// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/JsonValue.h"

#include "io/InputError.h"
#include "io/JsonWriter.h"
#include "io/RegularFile.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unordered_set>

namespace gpumem::io {

namespace {

[[noreturn]] void throwWrongType(JsonValue::Type expected, JsonValue::Type found)
{
    throw InputError(std::string("expected ") + describeType(expected) + ", found " + describeType(found));
}

std::string quoteKey(std::string_view key)
{
    return quoteForMessage(std::string(key));
}

bool isJsonWhitespace(char character)
{
    return character == ' ' || character == '\t' || character == '\n' || character == '\r';
}

bool isDigit(char character)
{
    return character >= '0' && character <= '9';
}

// Characters that end a bare word, so that an error quotes "NaN" or "01" rather
// than the rest of the line.
bool endsToken(char character)
{
    return isJsonWhitespace(character) || std::string_view(",:[]{}\"").find(character) != std::string_view::npos;
}

// Length of the well-formed UTF-8 sequence at text[i], or 0. The ranges of the
// second byte follow Unicode's table of well-formed sequences, which excludes
// overlong forms, surrogates and code points beyond U+10FFFF in one place.
std::size_t utf8SequenceLength(std::string_view text, std::size_t i)
{
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    unsigned char secondLow = 0x80;
    unsigned char secondHigh = 0xBF;
    if (lead < 0x80)
        return 1;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0)
            secondLow = 0xA0;
        else if (lead == 0xED)
            secondHigh = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0)
            secondLow = 0x90;
        else if (lead == 0xF4)
            secondHigh = 0x8F;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    const auto second = static_cast<unsigned char>(text[i + 1]);
    if (second < secondLow || second > secondHigh)
        return 0;
    for (std::size_t k = 2; k < length; ++k) {
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
            return 0;
    }
    return length;
}

void appendUtf8(std::string &text, std::uint32_t codePoint)
{
    if (codePoint < 0x80) {
        text += static_cast<char>(codePoint);
    } else if (codePoint < 0x800) {
        text += static_cast<char>(0xC0 | (codePoint >> 6));
        text += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
        text += static_cast<char>(0xE0 | (codePoint >> 12));
        text += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
        text += static_cast<char>(0x80 | (codePoint & 0x3F));
    } else {
        text += static_cast<char>(0xF0 | (codePoint >> 18));
        text += static_cast<char>(0x80 | ((codePoint >> 12) & 0x3F));
        text += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3F));
        text += static_cast<char>(0x80 | (codePoint & 0x3F));
    }
}

// Tells whether a key repeats within one object. Small objects, the usual case,
// are scanned directly; larger ones go through a hash set so that a hostile
// document with many keys still parses in linear time.
class DuplicateKeyFinder
{
  public:
    // Returns whether key equals the key of one of the first count members.
    bool repeats(const JsonValue::Object &members, std::size_t count, std::string_view key)
    {
        if (count < linearLimit) {
            return std::any_of(members.begin(), members.begin() + static_cast<std::ptrdiff_t>(count),
                               [key](const auto &member) { return member.first == key; });
        }
        for (; mIndexed < count; ++mIndexed)
            mKeys.insert(members[mIndexed].first);
        return mKeys.count(std::string(key)) > 0;
    }

  private:
    static constexpr std::size_t linearLimit = 16;
    std::unordered_set<std::string> mKeys;
    std::size_t mIndexed = 0;
};

// A recursive-descent parser over the whole text. Recursion is bounded by
// maxJsonDepth, so hostile input cannot exhaust the stack. Positions are byte
// offsets; they become line and column only when an error is reported.
class JsonParser
{
  public:
    JsonParser(std::string_view text, const std::string &sourceName)
        : mText(text)
        , mSourceName(sourceName)
    {
    }

    JsonValue parseDocument()
    {
        // RFC 8259 lets parsers ignore a byte-order mark; editors on Windows add one.
        if (mText.substr(0, 3) == "\xEF\xBB\xBF")
            mStart = mPosition = 3;
        skipWhitespace();
        if (atEnd())
            fail(mPosition, "empty input");
        JsonValue value = parseValue(0);
        skipWhitespace();
        if (!atEnd())
            failExpected("expected the end of input after the JSON value");
        return value;
    }

  private:
    bool atEnd() const { return mPosition >= mText.size(); }
    bool isAt(char character) const { return charAt(mPosition) == character; }
    // Past the end this returns '\0', which no JSON token starts with, so callers need no bounds checks.
    char charAt(std::size_t position) const { return position < mText.size() ? mText[position] : '\0'; }

    void skipWhitespace()
    {
        while (!atEnd() && isJsonWhitespace(mText[mPosition]))
            ++mPosition;
    }

    JsonValue parseValue(int depth)
    {
        skipWhitespace();
        if (atEnd())
            failExpected("expected a value");
        const char next = mText[mPosition];
        if (next == '{')
            return parseObject(depth);
        if (next == '[')
            return parseArray(depth);
        if (next == '"')
            return JsonValue(parseString());
        // '.' and '+' are not valid starts, but routing them here gives ".5" and
        // "+1" a message about numbers instead of a generic one.
        if (next == '-' || next == '.' || next == '+' || isDigit(next))
            return parseNumber();
        return parseLiteral();
    }

    JsonValue parseLiteral()
    {
        const std::size_t start = mPosition;
        const std::string_view word = mText.substr(start, tokenEnd(start) - start);
        if (word == "null" || word == "true" || word == "false") {
            mPosition += word.size();
            if (word == "null")
                return JsonValue();
            return JsonValue(word == "true");
        }
        failExpected("expected a value");
    }

    void enterContainer(int depth) const
    {
        if (depth >= maxJsonDepth)
            fail(mPosition, "nesting deeper than " + std::to_string(maxJsonDepth) + " levels");
    }

    JsonValue parseArray(int depth)
    {
        enterContainer(depth);
        ++mPosition;
        JsonValue::Array items;
        skipWhitespace();
        if (isAt(']')) {
            ++mPosition;
            return JsonValue(std::move(items));
        }
        while (true) {
            items.push_back(parseValue(depth + 1));
            skipWhitespace();
            if (isAt(']')) {
                ++mPosition;
                return JsonValue(std::move(items));
            }
            if (!isAt(','))
                failExpected("expected ',' or ']' after an array element");
            const std::size_t comma = mPosition++;
            skipWhitespace();
            if (isAt(']'))
                fail(comma, "trailing comma before ']'");
        }
    }

    JsonValue parseObject(int depth)
    {
        enterContainer(depth);
        ++mPosition;
        JsonValue::Object members;
        DuplicateKeyFinder duplicates;
        skipWhitespace();
        if (isAt('}')) {
            ++mPosition;
            return JsonValue(std::move(members));
        }
        while (true) {
            if (!isAt('"'))
                failExpected("expected a string key");
            const std::size_t keyStart = mPosition;
            std::string key = parseString();
            if (duplicates.repeats(members, members.size(), key))
                fail(keyStart, "duplicate key " + quoteKey(key));
            skipWhitespace();
            if (!isAt(':'))
                failExpected("expected ':' after the key " + quoteKey(key));
            ++mPosition;
            JsonValue item = parseValue(depth + 1);
            members.emplace_back(std::move(key), std::move(item));
            skipWhitespace();
            if (isAt('}')) {
                ++mPosition;
                return JsonValue(std::move(members));
            }
            if (!isAt(','))
                failExpected("expected ',' or '}' after an object member");
            const std::size_t comma = mPosition++;
            skipWhitespace();
            if (isAt('}'))
                fail(comma, "trailing comma before '}'");
        }
    }

    std::string parseString()
    {
        const std::size_t openingQuote = mPosition++;
        std::string text;
        while (true) {
            if (atEnd())
                fail(openingQuote, "unterminated string");
            const auto byte = static_cast<unsigned char>(mText[mPosition]);
            if (byte == '"') {
                ++mPosition;
                return text;
            }
            if (byte == '\\') {
                appendEscape(text, openingQuote);
            } else if (byte < 0x20) {
                static constexpr char hexDigits[] = "0123456789ABCDEF";
                fail(mPosition, std::string("unescaped control character U+00") + hexDigits[byte >> 4] +
                                    hexDigits[byte & 0xF] + " in a string");
            } else {
                const std::size_t length = utf8SequenceLength(mText, mPosition);
                if (length == 0)
                    fail(mPosition, "invalid UTF-8 in a string");
                text.append(mText.substr(mPosition, length));
                mPosition += length;
            }
        }
    }

    void appendEscape(std::string &text, std::size_t openingQuote)
    {
        const std::size_t escapeStart = mPosition;
        if (escapeStart + 1 >= mText.size())
            fail(openingQuote, "unterminated string");
        mPosition += 2;
        switch (mText[escapeStart + 1]) {
        case '"': text += '"'; return;
        case '\\': text += '\\'; return;
        case '/': text += '/'; return;
        case 'b': text += '\b'; return;
        case 'f': text += '\f'; return;
        case 'n': text += '\n'; return;
        case 'r': text += '\r'; return;
        case 't': text += '\t'; return;
        case 'u': break;
        default: fail(escapeStart, "invalid escape " + quoteSpan(escapeStart, 2) + " in a string");
        }
        std::uint32_t codePoint = readHexEscape(escapeStart);
        mPosition = escapeStart + 6;
        const bool isHighSurrogate = codePoint >= 0xD800 && codePoint <= 0xDBFF;
        const bool isLowSurrogate = codePoint >= 0xDC00 && codePoint <= 0xDFFF;
        if (isHighSurrogate && mText.substr(mPosition, 2) == "\\u") {
            const std::uint32_t low = readHexEscape(mPosition);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                codePoint = 0x10000 + ((codePoint - 0xD800) << 10) + (low - 0xDC00);
                mPosition += 6;
                appendUtf8(text, codePoint);
                return;
            }
        }
        // A surrogate half has no UTF-8 form; substituting U+FFFD would silently
        // change the text, so the document is rejected instead.
        if (isHighSurrogate || isLowSurrogate)
            fail(escapeStart, "lone surrogate " + quoteSpan(escapeStart, 6) + " in a string");
        appendUtf8(text, codePoint);
    }

    // Reads the four hex digits of the \u escape starting at escapeStart.
    std::uint32_t readHexEscape(std::size_t escapeStart) const
    {
        const char *first = mText.data() + escapeStart + 2;
        const char *last = mText.data() + std::min(mText.size(), escapeStart + 6);
        std::uint32_t codePoint = 0;
        const auto result = std::from_chars(first, last, codePoint, 16);
        const auto digits = static_cast<std::size_t>(result.ptr - first);
        if (digits != 4)
            fail(escapeStart, "invalid escape " + quoteSpan(escapeStart, 3 + digits) + ", \\u needs four hex digits");
        return codePoint;
    }

    JsonValue parseNumber()
    {
        const std::size_t start = mPosition;
        std::size_t position = start;
        if (charAt(position) == '+')
            failNumber(start, ", a leading '+' is not allowed");
        if (charAt(position) == '-')
            ++position;
        if (charAt(position) == '.')
            failNumber(start, ", a digit must come before the decimal point");
        if (!isDigit(charAt(position)))
            failNumber(start, "");
        const std::size_t integerStart = position;
        if (charAt(position) == '0' && isDigit(charAt(position + 1)))
            failNumber(start, ", leading zeros are not allowed");
        while (isDigit(charAt(position)))
            ++position;
        const std::size_t integerEnd = position;

        std::size_t fractionStart = position;
        std::size_t fractionEnd = position;
        if (charAt(position) == '.') {
            fractionStart = ++position;
            if (!isDigit(charAt(position)))
                failNumber(start, ", a digit must follow the decimal point");
            while (isDigit(charAt(position)))
                ++position;
            fractionEnd = position;
        }

        long exponent = 0;
        if (charAt(position) == 'e' || charAt(position) == 'E') {
            ++position;
            const bool negativeExponent = charAt(position) == '-';
            if (charAt(position) == '-' || charAt(position) == '+')
                ++position;
            if (!isDigit(charAt(position)))
                failNumber(start, ", the exponent needs digits");
            while (isDigit(charAt(position))) {
                // Saturating keeps huge exponents from overflowing; the value is out of range anyway.
                exponent = std::min(exponent * 10 + (mText[position] - '0'), 1'000'000L);
                ++position;
            }
            if (negativeExponent)
                exponent = -exponent;
        }
        // "1.5x" or "1e5e5" would otherwise be reported as a stray character after a
        // valid number, which hides that the whole word is malformed.
        if (tokenEnd(start) != position)
            failNumber(start, "");

        double number = 0.0;
        const auto result = std::from_chars(mText.data() + start, mText.data() + position, number);
        if (result.ec == std::errc::result_out_of_range) {
            // from_chars reports underflow and overflow alike. A value below 1 can only
            // underflow, and rounding it to zero is what every other JSON reader does;
            // only overflow is an error.
            const std::string_view digits = mText.substr(integerStart, integerEnd - integerStart);
            const std::string_view fraction = mText.substr(fractionStart, fractionEnd - fractionStart);
            long magnitude = exponent;
            if (const auto first = digits.find_first_not_of('0'); first != std::string_view::npos)
                magnitude += static_cast<long>(digits.size() - first) - 1;
            else
                magnitude -= static_cast<long>(fraction.find_first_not_of('0')) + 1;
            if (magnitude >= 0)
                fail(start, "number out of range: " + quoteSpan(start, position - start));
            number = mText[start] == '-' ? -0.0 : 0.0;
        } else if (result.ec != std::errc() || result.ptr != mText.data() + position) {
            failNumber(start, "");
        }
        mPosition = position;
        return JsonValue(number);
    }

    [[noreturn]] void failNumber(std::size_t start, const std::string &reason) const
    {
        fail(start, "invalid number " + quoteSpan(start, tokenEnd(start) - start) + reason);
    }

    std::size_t tokenEnd(std::size_t start) const
    {
        std::size_t end = start;
        while (end < mText.size() && !endsToken(mText[end]))
            ++end;
        return end;
    }

    // Quotes length bytes from position, extended to the end of a character cut in the middle.
    std::string quoteSpan(std::size_t position, std::size_t length) const
    {
        std::size_t end = std::min(mText.size(), position + length);
        while (end < mText.size() && (static_cast<unsigned char>(mText[end]) & 0xC0) == 0x80)
            ++end;
        return quoteForMessage(std::string(mText.substr(position, end - position)));
    }

    // Fails at the current position with "<expectation>, found <what is there>".
    [[noreturn]] void failExpected(const std::string &expectation) const
    {
        const std::string_view rest = mText.substr(std::min(mPosition, mText.size()));
        if (rest.empty())
            fail(mPosition, expectation + ", found end of input");
        // People write comments into configuration files by habit; say so plainly.
        if (rest.substr(0, 2) == "//" || rest.substr(0, 2) == "/*")
            fail(mPosition, "comments are not allowed in JSON");
        const std::size_t end = endsToken(rest.front()) ? mPosition + 1 : tokenEnd(mPosition);
        fail(mPosition, expectation + ", found " + quoteSpan(mPosition, end - mPosition));
    }

    [[noreturn]] void fail(std::size_t position, const std::string &message) const
    {
        std::int64_t line = 1;
        std::int64_t column = 1;
        for (std::size_t i = mStart; i < position && i < mText.size(); ++i) {
            const auto byte = static_cast<unsigned char>(mText[i]);
            if (byte == '\n') {
                ++line;
                column = 1;
            } else if ((byte & 0xC0) != 0x80) {
                // Continuation bytes do not start a character; columns count characters as editors do.
                ++column;
            }
        }
        throw InputError(mSourceName, line, column, message);
    }

    std::string_view mText;
    const std::string &mSourceName;
    std::size_t mStart = 0;
    std::size_t mPosition = 0;
};

} // namespace

JsonValue::JsonValue(Object members)
{
    DuplicateKeyFinder duplicates;
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (duplicates.repeats(members, i, members[i].first))
            throw std::invalid_argument("JsonValue: duplicate key " + quoteKey(members[i].first));
    }
    mValue = std::move(members);
}

JsonValue JsonValue::array()
{
    return JsonValue(Array());
}

JsonValue JsonValue::object()
{
    return JsonValue(Object());
}

bool JsonValue::toBool() const
{
    if (const auto *flag = std::get_if<bool>(&mValue))
        return *flag;
    throwWrongType(Type::Bool, type());
}

double JsonValue::toNumber() const
{
    if (const auto *number = std::get_if<double>(&mValue))
        return *number;
    throwWrongType(Type::Number, type());
}

const std::string &JsonValue::toString() const
{
    if (const auto *text = std::get_if<std::string>(&mValue))
        return *text;
    throwWrongType(Type::String, type());
}

const JsonValue::Array &JsonValue::toArray() const
{
    if (const auto *items = std::get_if<Array>(&mValue))
        return *items;
    throwWrongType(Type::Array, type());
}

const JsonValue::Object &JsonValue::toObject() const
{
    if (const auto *members = std::get_if<Object>(&mValue))
        return *members;
    throwWrongType(Type::Object, type());
}

const JsonValue *JsonValue::find(std::string_view key) const
{
    // Configuration objects have a handful of keys; a linear scan beats a map
    // and keeps the insertion order without a second index.
    for (const auto &member : toObject()) {
        if (member.first == key)
            return &member.second;
    }
    return nullptr;
}

const JsonValue &JsonValue::at(std::string_view key) const
{
    if (const JsonValue *member = find(key))
        return *member;
    throw InputError("missing key " + quoteKey(key));
}

double JsonValue::numberOr(std::string_view key, double fallback) const
{
    const JsonValue *member = find(key);
    if (member == nullptr || member->isNull())
        return fallback;
    if (!member->isNumber())
        throw InputError("key " + quoteKey(key) + ": expected a number, found " + describeType(member->type()));
    return member->toNumber();
}

void JsonValue::push_back(JsonValue item)
{
    auto *items = std::get_if<Array>(&mValue);
    if (items == nullptr)
        throw std::logic_error(std::string("JsonValue::push_back on ") + describeType(type()) + ", not an array");
    items->push_back(std::move(item));
}

void JsonValue::set(std::string key, JsonValue item)
{
    auto *members = std::get_if<Object>(&mValue);
    if (members == nullptr)
        throw std::logic_error(std::string("JsonValue::set on ") + describeType(type()) + ", not an object");
    for (auto &member : *members) {
        if (member.first == key) {
            member.second = std::move(item);
            return;
        }
    }
    members->emplace_back(std::move(key), std::move(item));
}

const char *describeType(JsonValue::Type type)
{
    switch (type) {
    case JsonValue::Type::Null: return "null";
    case JsonValue::Type::Bool: return "a boolean";
    case JsonValue::Type::Number: return "a number";
    case JsonValue::Type::String: return "a string";
    case JsonValue::Type::Array: return "an array";
    case JsonValue::Type::Object: return "an object";
    }
    return "an unknown value";
}

JsonValue parseJson(std::string_view text, const std::string &sourceName)
{
    return JsonParser(text, sourceName).parseDocument();
}

JsonValue readJsonFile(const std::string &path)
{
    return parseJson(readRegularFile(path, maxJsonFileBytes), path);
}

void writeJson(JsonWriter &writer, const JsonValue &value)
{
    switch (value.type()) {
    case JsonValue::Type::Null: writer.null(); break;
    case JsonValue::Type::Bool: writer.value(value.toBool()); break;
    case JsonValue::Type::Number: writer.value(value.toNumber()); break;
    case JsonValue::Type::String: writer.value(value.toString()); break;
    case JsonValue::Type::Array:
        writer.beginArray();
        for (const JsonValue &item : value.toArray())
            writeJson(writer, item);
        writer.endArray();
        break;
    case JsonValue::Type::Object:
        writer.beginObject();
        for (const auto &[key, item] : value.toObject()) {
            writer.key(key);
            writeJson(writer, item);
        }
        writer.endObject();
        break;
    }
}

} // namespace gpumem::io
