// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/LoadCancelled.h"
#include "data/Table.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"

#include <istream>
#include <memory>
#include <optional>
#include <string>

namespace gpumem::data {

struct TableLoadOptions
{
    char delimiter = 0;                // 0 detects comma, semicolon or tab
    std::size_t categoricalLimit = 50; // more distinct strings than this make an identifier column
    // Whether numbers use a decimal comma ("1,5"); unset detects it: a semicolon-separated
    // file whose numbers have decimal commas and never a decimal point.
    std::optional<bool> decimalComma;
};

// A column counts as numeric when at least this share of its present cells are
// numbers; the other cells are then invalid (bad) cells, not categories.
constexpr double numericShare = 0.9;

// Loads a CSV file with a header row into typed columns; a gzip-compressed file (known
// by its first bytes, whatever its name) is inflated as it streams. The file is streamed
// twice: once to infer each column's type from every cell, once to store the
// typed values, so memory holds the typed table and one record, never the text.
// Throws io::InputError (file, line, column, reason) for a path that is not a
// regular file (a folder, device or pipe), an empty file, a header without rows,
// duplicate column names, ragged rows and malformed CSV or UTF-8. Missing and
// non-finite cells, text in a mostly numeric column, and layer sequences whose
// values add up beyond the largest number are not errors here: they are counted
// per column (Column::isBad) and judged later by the bad-cell policy, where roles are known.
// observer (optional) hears the share of the load done (each pass is half of it)
// on the loading thread, in visible steps (1%); control (optional) is checked for
// a cancel before every record, and a load it cancels throws LoadCancelled (a
// pause is not honoured: a load holds its file open).
Table loadTable(const std::string &path, const TableLoadOptions &options = {},
                runtime::ProgressObserver *observer = nullptr, const runtime::OperationControl *control = nullptr);

// Loads CSV text (or gzip-compressed CSV) held in memory; sourceName names it in error messages.
Table loadTableFromText(const std::string &text, const std::string &sourceName, const TableLoadOptions &options = {});

} // namespace gpumem::data
