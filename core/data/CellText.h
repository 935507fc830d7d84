// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace gpumem::data {

// What one CSV cell holds, as the table loader decides a column's type from it.
enum class CellKind
{
    Missing,   // empty or a missing-value token (NA, N/A, NaN, null, None, #N/A, …)
    Number,    // a finite number (an underflowing one reads as 0)
    NonFinite, // a number too large for a double, or inf
    Text
};

// text without its leading and trailing spaces and tabs.
std::string_view trimmed(std::string_view text);

// Classifies a cell and, for numbers, parses it into number. Locale-independent:
// with decimalComma, "1,5" is read as 1.5 and any '.' makes the cell text, since
// "1.234,5" could mean either thousands or decimals. scratch holds the rewritten digits.
CellKind classifyCell(std::string_view raw, double &number, bool decimalComma, std::string &scratch);

// True for the kinds that are numbers, finite or not.
bool isNumber(CellKind kind);

} // namespace gpumem::data
