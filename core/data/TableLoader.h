// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"

#include <atomic>
#include <exception>
#include <functional>
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

// Lets a caller watch a load and stop it, in the shape of the probe's and the
// trainer's progress: progressed(share) hears the share (0..1) of the load done
// (the file is read twice, each pass half of it), on the loading thread, only
// when it has moved by a visible step (1%); cancel, when set, is checked before
// every record, and a load it stops throws LoadCancelled.
struct TableLoadMonitor
{
    std::function<void(double share)> progressed;
    const std::atomic_bool *cancel = nullptr;
};

// Thrown by a load that its monitor's cancel flag stopped; nothing was loaded.
class LoadCancelled : public std::exception
{
  public:
    const char *what() const noexcept override { return "loading was cancelled"; }
};

// A column counts as numeric when at least this share of its present cells are
// numbers; the other cells are then invalid (bad) cells, not categories.
constexpr double numericShare = 0.9;

// Loads a CSV file with a header row into typed columns. The file is streamed
// twice: once to infer each column's type from every cell, once to store the
// typed values, so memory holds the typed table and one record, never the text.
// Throws io::InputError (file, line, column, reason) for a path that is not a
// regular file (a folder, device or pipe), an empty file, a header without rows,
// duplicate column names, ragged rows and malformed CSV or UTF-8. Missing and
// non-finite cells, text in a mostly numeric column, and layer sequences whose
// values add up beyond the largest number are not errors here: they are counted
// per column (Column::isBad) and judged later by the bad-cell policy, where roles are known.
Table loadTable(const std::string &path, const TableLoadOptions &options = {}, const TableLoadMonitor &monitor = {});

// Loads CSV text held in memory; sourceName names it in error messages.
Table loadTableFromText(const std::string &text, const std::string &sourceName, const TableLoadOptions &options = {});

} // namespace gpumem::data
