// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/NumberText.h"

#include <charconv>
#include <cmath>

namespace gpumem::io {

std::string csvNumber(double value)
{
    if (std::isnan(value))
        return {};
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
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
