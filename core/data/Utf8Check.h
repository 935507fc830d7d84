// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string_view>

namespace gpumem::data {

// Returns the 0-based offset of the first byte of text that does not belong to
// well-formed UTF-8 (overlong forms, surrogates and code points above U+10FFFF
// included), or std::string_view::npos when all of text is well formed.
std::size_t firstInvalidUtf8Byte(std::string_view text);

} // namespace gpumem::data
