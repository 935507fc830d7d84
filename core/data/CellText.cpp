// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/CellText.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_set>

namespace gpumem::data {

namespace {

bool isMissingToken(std::string_view text)
{
    // Every token is short: most cells are rejected without hashing.
    if (text.size() > 4)
        return false;
    static const std::unordered_set<std::string_view> tokens = {"",    "NA",   "N/A",  "n/a",  "NaN", "nan",
                                                                "NAN", "null", "NULL", "None", "#N/A"};
    return tokens.count(text) != 0;
}

// Tells overflow from underflow for a decimal that from_chars found out of range
// (from_chars leaves the value untouched then, and strtod would depend on the locale):
// the decimal exponent of its first significant digit decides.
bool overflows(std::string_view number)
{
    std::int64_t magnitude = 0;
    bool seenPoint = false;
    bool seenSignificant = false;
    std::size_t i = (!number.empty() && number.front() == '-') ? 1 : 0;
    for (; i < number.size() && number[i] != 'e' && number[i] != 'E'; ++i) {
        const char c = number[i];
        if (c == '.') {
            seenPoint = true;
        } else if (c != '0' || seenSignificant) {
            seenSignificant = true;
            if (!seenPoint)
                ++magnitude;
        } else if (seenPoint) {
            --magnitude; // a zero between the point and the first significant digit
        }
    }
    if (i < number.size()) {
        std::int64_t exponent = 0;
        const char *begin = number.data() + i + 1;
        if (*begin == '+')
            ++begin;
        std::from_chars(begin, number.data() + number.size(), exponent);
        // An exponent too long for int64 saturates; its sign is all that matters then.
        if (exponent == 0 && number.size() > i + 2)
            exponent = number[i + 1] == '-' ? std::numeric_limits<std::int32_t>::min()
                                            : std::numeric_limits<std::int32_t>::max();
        magnitude += exponent;
    }
    return magnitude > 0;
}

} // namespace

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

// Classifies a cell and, for numbers, parses it. Locale-independent: with a
// decimal comma, "1,5" is read as 1.5 and any '.' makes the cell text, since
// "1.234,5" could mean either thousands or decimals. scratch holds the rewritten digits.
CellKind classifyCell(std::string_view raw, double &number, bool decimalComma, std::string &scratch)
{
    const std::string_view text = trimmed(raw);
    if (isMissingToken(text))
        return CellKind::Missing;
    std::string_view digits = text;
    if (decimalComma) {
        if (digits.find('.') != std::string_view::npos)
            return CellKind::Text;
        if (digits.find(',') != std::string_view::npos) {
            scratch.assign(digits);
            std::replace(scratch.begin(), scratch.end(), ',', '.');
            digits = scratch;
        }
    }
    if (digits.front() == '+')
        digits.remove_prefix(1);
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (result.ptr != digits.data() + digits.size() || digits.empty())
        return CellKind::Text;
    if (result.ec == std::errc::invalid_argument)
        return CellKind::Text;
    if (result.ec == std::errc::result_out_of_range) {
        // Overflow (1e400) is not finite; underflow (1e-400) is a legitimate tiny number.
        if (overflows(digits))
            return CellKind::NonFinite;
        number = 0.0;
        return CellKind::Number;
    }
    return std::isfinite(number) ? CellKind::Number : CellKind::NonFinite;
}

bool isNumber(CellKind kind)
{
    return kind == CellKind::Number || kind == CellKind::NonFinite;
}

} // namespace gpumem::data
