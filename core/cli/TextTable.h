// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// Lays out rows of text in aligned columns for a terminal. Widths count
// UTF-8 characters, not bytes, so names like "Größe" line up.
class TextTable
{
  public:
    enum class Alignment
    {
        Left,
        Right
    };

    struct Column
    {
        // Implicit, so that a bare title stands for a left-aligned column.
        Column(std::string columnTitle, Alignment columnAlignment = Alignment::Left);
        Column(const char *columnTitle, Alignment columnAlignment = Alignment::Left);
        std::string title;
        Alignment alignment;
    };
    // A right-aligned column, as numbers are.
    static Column numeric(std::string title);

    explicit TextTable(std::vector<Column> columns);

    void addRow(std::vector<std::string> cells);
    // Prints the table; withHeader adds the header row and a rule under it.
    void print(std::ostream &out, bool withHeader = true) const;

  private:
    std::vector<Column> mColumns;
    std::vector<std::vector<std::string>> mRows;
};

// The number of characters (code points) in UTF-8 text.
std::size_t displayWidth(const std::string &text);

} // namespace gpumem::cli
