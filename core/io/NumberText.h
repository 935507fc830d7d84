// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace gpumem::io {

// The text of values in the CSV files the project writes.

// Returns the shortest text that reads back to exactly value (e.g. "1545",
// "0.1", "1e+300"), as CSV files written by the project hold numbers; NaN gives
// an empty string, a missing cell. Thread-safe.
std::string csvNumber(double value);

// Returns value as std::snprintf prints it with format, which takes exactly one
// double (e.g. "%.6f", "%g", "%a"); the text is never cut short.
std::string formattedNumber(const char *format, double value);

// Returns text as one CSV field (RFC 4180): quoted when it holds a comma, quote or line break.
std::string csvField(const std::string &text);

} // namespace gpumem::io
