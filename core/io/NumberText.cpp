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

} // namespace gpumem::io
