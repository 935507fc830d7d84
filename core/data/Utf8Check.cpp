// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/Utf8Check.h"

namespace gpumem::data {

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

// Length of the well-formed sequence that starts at text[i], or 0.
std::size_t sequenceLength(std::string_view text, std::size_t i)
{
    const auto lead = static_cast<unsigned char>(text[i]);
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

} // namespace

std::size_t firstInvalidUtf8Byte(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        // Most cells are ASCII: step over them without decoding.
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t length = sequenceLength(text, i);
        if (length == 0)
            return i;
        i += length;
    }
    return std::string_view::npos;
}

} // namespace gpumem::data
