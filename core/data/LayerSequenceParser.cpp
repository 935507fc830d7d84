// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/LayerSequenceParser.h"

#include <charconv>
#include <cmath>
#include <string>

namespace gpumem::data {

namespace {

// A cursor over one cell; every error names the byte offset where it was noticed.
class Cursor
{
  public:
    explicit Cursor(std::string_view text)
        : mText(text)
    {
    }

    void skipBlanks()
    {
        while (mPosition < mText.size() && (mText[mPosition] == ' ' || mText[mPosition] == '\t' ||
                                            mText[mPosition] == '\n' || mText[mPosition] == '\r'))
            ++mPosition;
    }

    bool atEnd() const { return mPosition >= mText.size(); }
    char current() const { return atEnd() ? '\0' : mText[mPosition]; }

    bool accept(char expected)
    {
        skipBlanks();
        if (current() != expected)
            return false;
        ++mPosition;
        return true;
    }

    void expect(char expected, const char *context)
    {
        if (!accept(expected))
            fail(std::string("expected '") + expected + "' " + context + found());
    }

    [[noreturn]] void fail(const std::string &message) const { throw LayerSequenceError(mPosition, message); }

    std::string found() const
    {
        if (atEnd())
            return ", found the end of the cell";
        const char c = current();
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F)
            return ", found a non-printable character";
        return std::string(", found '") + c + "'";
    }

    void readQuoted(std::string &out)
    {
        skipBlanks();
        const char quote = current();
        if (quote != '\'' && quote != '"')
            fail("expected a quoted layer type" + found());
        const std::size_t opening = mPosition;
        ++mPosition;
        out.clear();
        for (;;) {
            if (atEnd())
                throw LayerSequenceError(opening, "unterminated quoted layer type");
            char c = mText[mPosition++];
            if (c == quote)
                break;
            if (c == '\\') {
                if (atEnd())
                    throw LayerSequenceError(opening, "unterminated quoted layer type");
                c = mText[mPosition++];
            }
            out += c;
        }
        if (out.empty())
            throw LayerSequenceError(opening, "empty layer type");
    }

    double readNumber()
    {
        skipBlanks();
        std::size_t start = mPosition;
        // from_chars rejects a leading '+', which Python's repr never writes but people might.
        if (current() == '+')
            start = ++mPosition;
        double number = 0.0;
        const char *begin = mText.data() + start;
        const char *end = mText.data() + mText.size();
        const auto result = std::from_chars(begin, end, number);
        if (result.ec == std::errc::invalid_argument)
            fail("expected a number" + found());
        mPosition = start + static_cast<std::size_t>(result.ptr - begin);
        if (result.ec == std::errc::result_out_of_range || !std::isfinite(number))
            throw LayerSequenceError(start, "number out of range (not finite)");
        return number;
    }

  private:
    std::string_view mText;
    std::size_t mPosition = 0;
};

void readTuple(Cursor &cursor, LayerTuple &layer)
{
    cursor.expect('(', "to open a layer tuple");
    cursor.readQuoted(layer.type);
    layer.fields.clear();
    while (cursor.accept(',')) {
        if (cursor.accept(')'))
            break; // trailing comma, as Python allows
        if (layer.fields.size() == maxFieldsPerLayer)
            cursor.fail("a layer tuple holds more than " + std::to_string(maxFieldsPerLayer) + " numbers");
        layer.fields.push_back(cursor.readNumber());
        cursor.skipBlanks();
        if (cursor.current() == ')') {
            cursor.accept(')');
            break;
        }
        if (cursor.current() != ',')
            cursor.fail("expected ',' or ')' in a layer tuple" + cursor.found());
    }
    if (layer.fields.empty())
        cursor.fail("a layer tuple needs at least one number after its type");
}

} // namespace

bool looksLikeLayerSequence(std::string_view text)
{
    for (char c : text) {
        if (c == ' ' || c == '\t')
            continue;
        return c == '[';
    }
    return false;
}

void parseLayerSequence(std::string_view text, std::vector<LayerTuple> &layers)
{
    Cursor cursor(text);
    std::size_t count = 0;
    cursor.expect('[', "to open the layer list");
    if (!cursor.accept(']')) {
        for (;;) {
            if (count == maxLayersPerSequence)
                cursor.fail("more than " + std::to_string(maxLayersPerSequence) + " layers in one sequence");
            if (count == layers.size())
                layers.emplace_back();
            readTuple(cursor, layers[count]);
            ++count;
            if (cursor.accept(']'))
                break;
            cursor.expect(',', "between layer tuples");
            if (cursor.accept(']'))
                break; // trailing comma
        }
    }
    cursor.skipBlanks();
    if (!cursor.atEnd())
        cursor.fail("unexpected text after the layer list" + cursor.found());
    layers.resize(count);
}

} // namespace gpumem::data
