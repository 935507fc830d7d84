// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/NumberText.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace gpumem::io {

std::string csvNumber(double value)
{
    if (std::isnan(value))
        return {};
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

std::string formattedNumber(const char *format, double value)
{
    char text[64];
    const int length = std::snprintf(text, sizeof text, format, value);
    if (length < 0)
        return {};
    if (static_cast<std::size_t>(length) < sizeof text)
        return std::string(text, static_cast<std::size_t>(length));
    // "%f" of a huge value runs to hundreds of digits.
    std::string longer(static_cast<std::size_t>(length) + 1, '\0');
    std::snprintf(longer.data(), longer.size(), format, value);
    longer.resize(static_cast<std::size_t>(length));
    return longer;
}

std::string csvField(const std::string &text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

} // namespace gpumem::io
