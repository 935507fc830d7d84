// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/Utf8.h"

namespace gpumem::io {

namespace {

bool isContinuation(unsigned char byte)
{
    return (byte & 0xC0) == 0x80;
}

// Unicode's table of well-formed UTF-8 byte sequences (Table 3-7): for each
// range of lead bytes, the sequence's length and the range its second byte must
// lie in; later bytes are plain continuation bytes. The narrower second-byte
// ranges rule out overlong forms (E0, F0), surrogates (ED) and code points
// beyond U+10FFFF (F4).
struct LeadBytes
{
    unsigned char first, last;
    std::size_t length;
    unsigned char secondLow, secondHigh;
};
constexpr LeadBytes kLeadBytes[] = {
    {0xC2, 0xDF, 2, 0x80, 0xBF}, {0xE0, 0xE0, 3, 0xA0, 0xBF}, {0xE1, 0xEC, 3, 0x80, 0xBF}, {0xED, 0xED, 3, 0x80, 0x9F},
    {0xEE, 0xEF, 3, 0x80, 0xBF}, {0xF0, 0xF0, 4, 0x90, 0xBF}, {0xF1, 0xF3, 4, 0x80, 0xBF}, {0xF4, 0xF4, 4, 0x80, 0x8F}};

} // namespace

std::size_t validUtf8Length(std::string_view text, std::size_t i)
{
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80)
        return 1;
    for (const auto &range : kLeadBytes) {
        if (lead < range.first || lead > range.last)
            continue;
        if (text.size() - i < range.length)
            return 0;
        const auto second = static_cast<unsigned char>(text[i + 1]);
        if (second < range.secondLow || second > range.secondHigh)
            return 0;
        for (std::size_t k = 2; k < range.length; ++k)
            if (!isContinuation(static_cast<unsigned char>(text[i + k])))
                return 0;
        return range.length;
    }
    return 0;
}

std::size_t firstInvalidUtf8Byte(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        // Most cells are ASCII: step over them without decoding.
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = validUtf8Length(text, i);
        if (length == 0)
            return i;
        i += length;
    }
    return std::string_view::npos;
}

std::string replaceInvalidUtf8(std::string_view text)
{
    std::string replaced;
    replaced.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = validUtf8Length(text, i);
        if (length == 0) {
            replaced += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            ++i;
        } else {
            replaced.append(text, i, length);
            i += length;
        }
    }
    return replaced;
}

std::string_view cutUtf8(std::string_view text, std::size_t maxBytes)
{
    if (text.size() <= maxBytes)
        return text;
    std::size_t end = maxBytes;
    while (end > 0 && isContinuation(static_cast<unsigned char>(text[end])))
        --end;
    return text.substr(0, end);
}

} // namespace gpumem::io
