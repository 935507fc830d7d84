// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One row of a probe's CSV file as text, written and read back the same way:
// a resumed probe reads the rows an interrupted one wrote.

#include <cstddef>
#include <string>
#include <vector>

namespace gpumem::probe {

// Quotes a cell when it holds a comma or a quote; line breaks become spaces so a row stays one line.
std::string csvCell(std::string text);

// The cells joined by commas, as they are (each already written by csvCell).
std::string joinCells(const std::vector<std::string> &cells);

// Splits one line as csvCell and joinCells write it: cells between commas, a
// quoted cell holding commas and doubled quotes. Returns 0, or the 1-based cell
// whose quoting is broken.
std::size_t splitCsvLine(const std::string &line, std::vector<std::string> &cells);

} // namespace gpumem::probe
