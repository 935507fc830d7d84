// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace gpumem::io {

// The one UTF-8 validator: well-formed means Unicode's table of byte sequences
// (overlong forms, surrogates and code points above U+10FFFF are not). The CSV
// reader, the JSON reader's messages, the JSON writer and the calibrated GPU
// profile's texts use it.

// Returns the length (1 to 4) of the well-formed sequence that starts at
// text[offset], 1 for an ASCII byte, or 0 when the bytes there are not well formed.
std::size_t validUtf8Length(std::string_view text, std::size_t offset);

// Returns the 0-based offset of the first byte of text that does not belong to
// well-formed UTF-8, or std::string_view::npos when all of text is well formed.
std::size_t firstInvalidUtf8Byte(std::string_view text);

// Returns text with every byte that is not part of well-formed UTF-8 replaced by
// U+FFFD, so that it prints and any JSON reader takes it.
std::string replaceInvalidUtf8(std::string_view text);

// Returns the longest start of text of at most maxBytes that does not split a
// character (text is assumed well formed).
std::string_view cutUtf8(std::string_view text, std::size_t maxBytes);

} // namespace gpumem::io
