// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/Json.h"

#include "io/InputError.h"
#include "io/RegularFile.h"
#include "io/Utf8.h"

#include <cmath>
#include <iterator>
#include <unordered_set>
#include <vector>

namespace gpumem::io {

namespace {

constexpr std::string_view byteOrderMark = "\xEF\xBB\xBF";

bool isJsonWhitespace(char character)
{
    return character == ' ' || character == '\t' || character == '\n' || character == '\r';
}

bool isNumberCharacter(char character)
{
    return (character >= '0' && character <= '9') || character == '-' || character == '+' || character == '.' ||
           character == 'e' || character == 'E';
}

// Walks the text like a const char *, and records in a counter shared with the
// parser's caller how many bytes the parser has read: nlohmann's callbacks and
// some of its errors carry no position, and this gives them one.
class CountingIterator
{
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char *;
    using reference = const char &;

    CountingIterator(const char *begin, const char *position, std::size_t *consumed)
        : mBegin(begin)
        , mPosition(position)
        , mConsumed(consumed)
    {
    }

    reference operator*() const { return *mPosition; }
    CountingIterator &operator++()
    {
        ++mPosition;
        *mConsumed = static_cast<std::size_t>(mPosition - mBegin);
        return *this;
    }
    CountingIterator operator++(int)
    {
        CountingIterator before = *this;
        ++*this;
        return before;
    }
    friend bool operator==(const CountingIterator &left, const CountingIterator &right)
    {
        return left.mPosition == right.mPosition;
    }
    friend bool operator!=(const CountingIterator &left, const CountingIterator &right) { return !(left == right); }

  private:
    const char *mBegin;
    const char *mPosition;
    std::size_t *mConsumed;
};

// Thrown from the checks below with the byte offset it concerns, turned into an
// InputError once the parser has unwound.
struct Rejection
{
    std::size_t offset;
    std::string message;
    bool atKey = false; // offset is just past a key's closing quote; the error points at its opening one
};

// nlohmann's own DOM builder behind the checks a file from a user needs: nesting
// depth and repeated keys. (nlohmann's callback parser could make them too, but it
// rescans the enclosing array after every object: quadratic in an array's length.)
class CheckedDomBuilder
{
  public:
    using number_integer_t = Json::number_integer_t;
    using number_unsigned_t = Json::number_unsigned_t;
    using number_float_t = Json::number_float_t;
    using string_t = Json::string_t;
    using binary_t = Json::binary_t;

    // consumed: the bytes the parser has read so far (CountingIterator's counter).
    CheckedDomBuilder(Json &result, const std::size_t &consumed)
        : mBuilder(result, true)
        , mConsumed(consumed)
    {
    }

    bool null() { return mBuilder.null(); }
    bool boolean(bool value) { return mBuilder.boolean(value); }
    bool number_integer(number_integer_t value) { return mBuilder.number_integer(value); }
    bool number_unsigned(number_unsigned_t value) { return mBuilder.number_unsigned(value); }
    bool number_float(number_float_t value, const string_t &text) { return mBuilder.number_float(value, text); }
    bool string(string_t &value) { return mBuilder.string(value); }
    bool binary(binary_t &value) { return mBuilder.binary(value); }
    bool start_object(std::size_t size)
    {
        enter();
        mKeysByDepth.emplace_back();
        return mBuilder.start_object(size);
    }
    bool key(string_t &key)
    {
        // A later member silently replacing an earlier one hides a mistake in the file.
        if (!mKeysByDepth.back().insert(key).second)
            throw Rejection{mConsumed, "duplicate key " + quoteForMessage(key), true};
        return mBuilder.key(key);
    }
    bool end_object()
    {
        mKeysByDepth.pop_back();
        --mDepth;
        return mBuilder.end_object();
    }
    bool start_array(std::size_t size)
    {
        enter();
        return mBuilder.start_array(size);
    }
    bool end_array()
    {
        --mDepth;
        return mBuilder.end_array();
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string &lastToken, const Exception &error)
    {
        return mBuilder.parse_error(position, lastToken, error); // throws error
    }

  private:
    void enter()
    {
        // The parser keeps its own stack, but a value is written recursively; the
        // limit keeps hostile input off the call stack.
        if (mDepth >= maxJsonDepth)
            throw Rejection{mConsumed - 1, "nesting deeper than " + std::to_string(maxJsonDepth) + " levels"};
        ++mDepth;
    }

    nlohmann::detail::json_sax_dom_parser<Json> mBuilder;
    const std::size_t &mConsumed;
    int mDepth = 0;
    std::vector<std::unordered_set<std::string>> mKeysByDepth;
};

class JsonParser
{
  public:
    JsonParser(std::string_view text, const std::string &sourceName)
        : mText(text)
        , mSourceName(sourceName)
    {
        // RFC 8259 lets parsers ignore a byte-order mark; editors on Windows add one.
        // nlohmann skips it too; here it only moves where columns start counting.
        if (mText.substr(0, byteOrderMark.size()) == byteOrderMark)
            mStart = byteOrderMark.size();
    }

    Json parseDocument()
    {
        if (mText.find_first_not_of(" \t\r\n", mStart) == std::string_view::npos)
            fail(mText.size(), "empty input");
        // The parser below stops at a NUL as at the end of the text, which would accept
        // "{...}\0anything"; JSON text holds no raw NUL, not even inside a string.
        if (const std::size_t nul = mText.find('\0'); nul != std::string_view::npos)
            fail(nul, "a NUL byte, which JSON text never holds");
        const char *begin = mText.data();
        const char *end = begin + mText.size();
        try {
            Json result;
            CheckedDomBuilder builder(result, mConsumed);
            Json::sax_parse(CountingIterator(begin, begin, &mConsumed), CountingIterator(begin, end, &mConsumed),
                            &builder, nlohmann::detail::input_format_t::json, true, false);
            return result;
        } catch (const Rejection &rejection) {
            fail(rejection.atKey ? keyStart(rejection.offset) : rejection.offset, rejection.message);
        } catch (const Json::parse_error &error) {
            // error.byte counts from 1 and names the last byte read, the one that broke the grammar.
            failSyntax(error.byte == 0 ? 0 : static_cast<std::size_t>(error.byte) - 1, error.what());
        } catch (const Json::out_of_range &error) {
            // Only a number too large for a double lands here, after the parser read one byte past it.
            failAt(numberStart(mConsumed), reasonOf(error.what()));
        }
    }

  private:
    // The opening quote of the key whose closing quote the parser has just read.
    std::size_t keyStart(std::size_t consumed) const
    {
        std::size_t position = consumed >= 2 ? consumed - 2 : 0;
        while (position > 0) {
            if (mText[position] == '"') {
                std::size_t backslashes = 0;
                while (backslashes < position && mText[position - 1 - backslashes] == '\\')
                    ++backslashes;
                if (backslashes % 2 == 0)
                    return position;
            }
            --position;
        }
        return position;
    }

    // The first byte of the number that ends just before consumed (the parser reads one byte ahead).
    std::size_t numberStart(std::size_t consumed) const
    {
        std::size_t position = std::min(consumed, mText.size());
        while (position > 0 && !isNumberCharacter(mText[position - 1]))
            --position;
        while (position > 0 && isNumberCharacter(mText[position - 1]))
            --position;
        return position;
    }

    static std::string reasonOf(const std::string &what)
    {
        // nlohmann's text reads "[json.exception.parse_error.101] parse error at line 1,
        // column 2: syntax error ..."; the location is given separately, so keep the reason.
        std::size_t start = what.find("] ");
        start = start == std::string::npos ? 0 : start + 2;
        if (const std::size_t column = what.find(", column ", start); column != std::string::npos)
            if (const std::size_t colon = what.find(": ", column); colon != std::string::npos)
                start = colon + 2;
        return what.substr(start);
    }

    // Explains the mistakes people make by habit in their own words, and everything
    // else in the parser's.
    [[noreturn]] void failSyntax(std::size_t offset, const std::string &what) const
    {
        offset = std::min(offset, mText.size());
        const std::string_view rest = mText.substr(offset);
        std::size_t previous = offset;
        while (previous > mStart && isJsonWhitespace(mText[previous - 1]))
            --previous;
        if (previous > mStart && mText[previous - 1] == ',' && !rest.empty() && (rest[0] == ']' || rest[0] == '}'))
            fail(previous - 1, std::string("trailing comma before '") + rest[0] + "'");
        if (rest.substr(0, 2) == "//" || rest.substr(0, 2) == "/*" ||
            (rest.substr(0, 1) == "/" && offset > 0 && mText[offset - 1] == '/'))
            fail(rest[0] == '/' && offset > 0 && mText[offset - 1] == '/' ? offset - 1 : offset,
                 "comments are not allowed in JSON");
        for (const std::string_view word : {"-Infinity", "NaN", "Infinity"}) {
            for (std::size_t start = offset >= word.size() ? offset - word.size() + 1 : 0; start <= offset; ++start)
                if (mText.substr(start, word.size()) == word)
                    fail(start, "'" + std::string(word) + "' is not a JSON number; write null or a finite number");
        }
        failAt(offset, reasonOf(what));
    }

    // Fails at offset with a message that may quote raw input; invalid UTF-8 in
    // it is replaced so the message itself stays printable.
    [[noreturn]] void failAt(std::size_t offset, const std::string &message) const
    {
        std::string printable = replaceInvalidUtf8(message);
        // The parser quotes what it read, which can be a token of megabytes: one short line.
        constexpr std::size_t longestMessage = 200;
        if (printable.size() > longestMessage)
            printable = std::string(cutUtf8(printable, longestMessage)) + "\xE2\x80\xA6"; // U+2026 HORIZONTAL ELLIPSIS
        fail(offset, printable);
    }

    [[noreturn]] void fail(std::size_t offset, const std::string &message) const
    {
        std::int64_t line = 1;
        std::int64_t column = 1;
        for (std::size_t i = mStart; i < offset && i < mText.size(); ++i) {
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
    std::size_t mConsumed = 0;
};

[[noreturn]] void throwWrongType(const char *expected, const Json &found)
{
    throw InputError(std::string("expected ") + expected + ", found " + describeType(found));
}

} // namespace

Json parseJson(std::string_view text, const std::string &sourceName)
{
    return JsonParser(text, sourceName).parseDocument();
}

Json readJsonFile(const std::string &path)
{
    return parseJson(readRegularFile(path, maxJsonFileBytes), path);
}

const char *describeType(const Json &value)
{
    switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "a number";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    default: return "an unknown value";
    }
}

bool toBool(const Json &value)
{
    if (!value.is_boolean())
        throwWrongType("a boolean", value);
    return value.get<bool>();
}

double toNumber(const Json &value)
{
    if (!value.is_number())
        throwWrongType("a number", value);
    return value.get<double>();
}

const std::string &toString(const Json &value)
{
    if (!value.is_string())
        throwWrongType("a string", value);
    return value.get_ref<const std::string &>();
}

const Json &toArray(const Json &value)
{
    if (!value.is_array())
        throwWrongType("an array", value);
    return value;
}

const Json &toObject(const Json &value)
{
    if (!value.is_object())
        throwWrongType("an object", value);
    return value;
}

const Json *findMember(const Json &object, std::string_view key)
{
    const Json &members = toObject(object);
    const auto found = members.find(key);
    return found == members.end() ? nullptr : &*found;
}

const Json &member(const Json &object, std::string_view key)
{
    if (const Json *found = findMember(object, key))
        return *found;
    throw InputError("missing key " + quoteForMessage(std::string(key)));
}

double numberOr(const Json &object, std::string_view key, double fallback)
{
    const Json *found = findMember(object, key);
    if (found == nullptr || found->is_null())
        return fallback;
    if (!found->is_number())
        throw InputError("key " + quoteForMessage(std::string(key)) + ": expected a number, found " +
                         describeType(*found));
    return found->get<double>();
}

std::vector<std::string> toStrings(const Json &array)
{
    std::vector<std::string> texts;
    for (const Json &item : toArray(array))
        texts.push_back(toString(item));
    return texts;
}

std::uint64_t toSeed(const Json &value)
{
    if (value.is_number_unsigned())
        return value.get<std::uint64_t>();
    if (value.is_number_integer())
        return static_cast<std::uint64_t>(value.get<std::int64_t>());
    const double number = toNumber(value);
    if (!(number >= -9.2e18 && number < 1.8e19) || number != std::floor(number))
        throw InputError("\"seed\" must be a whole number that fits 64 bits");
    return number < 0 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(number))
                      : static_cast<std::uint64_t>(number);
}

std::int64_t toWholeNumber(const Json &value, std::int64_t minimum, std::int64_t maximum, const std::string &what)
{
    const auto outside = [&](const std::string &shown) {
        return InputError(what + " must be a whole number from " + std::to_string(minimum) + " to " +
                          std::to_string(maximum) + ", not " + quoteForMessage(shown));
    };
    if (value.is_number_unsigned()) {
        const auto number = value.get<std::uint64_t>();
        if (maximum < 0 || number > static_cast<std::uint64_t>(maximum) || static_cast<std::int64_t>(number) < minimum)
            throw outside(std::to_string(number));
        return static_cast<std::int64_t>(number);
    }
    if (value.is_number_integer()) {
        const auto number = value.get<std::int64_t>();
        if (number < minimum || number > maximum)
            throw outside(std::to_string(number));
        return number;
    }
    const double number = toNumber(value);
    if (!(number >= static_cast<double>(minimum) && number <= static_cast<double>(maximum)) ||
        number != std::floor(number))
        throw outside(std::to_string(number));
    return static_cast<std::int64_t>(number);
}

} // namespace gpumem::io
