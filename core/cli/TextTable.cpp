// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/TextTable.h"

#include <algorithm>

namespace gpumem::cli {

std::size_t displayWidth(const std::string &text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

TextTable::Column::Column(std::string columnTitle, Alignment columnAlignment)
    : title(std::move(columnTitle))
    , alignment(columnAlignment)
{
}

TextTable::Column::Column(const char *columnTitle, Alignment columnAlignment)
    : Column(std::string(columnTitle), columnAlignment)
{
}

TextTable::Column TextTable::numeric(std::string title)
{
    return Column(std::move(title), Alignment::Right);
}

TextTable::TextTable(std::vector<Column> columns)
    : mColumns(std::move(columns))
{
}

void TextTable::addRow(std::vector<std::string> cells)
{
    cells.resize(mColumns.size());
    mRows.push_back(std::move(cells));
}

void TextTable::print(std::ostream &out, bool withHeader) const
{
    std::vector<std::size_t> widths(mColumns.size(), 0);
    for (std::size_t c = 0; c < mColumns.size(); ++c) {
        if (withHeader)
            widths[c] = displayWidth(mColumns[c].title);
        for (const auto &row : mRows)
            widths[c] = std::max(widths[c], displayWidth(row[c]));
    }
    auto printRow = [&](const std::vector<std::string> &cells) {
        std::string line;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::string padding(widths[c] - displayWidth(cells[c]), ' ');
            const bool last = c + 1 == cells.size();
            if (mColumns[c].alignment == Alignment::Right)
                line += padding + cells[c];
            else
                line += cells[c] + (last ? std::string() : padding);
            if (!last)
                line += "  ";
        }
        line.erase(line.find_last_not_of(' ') + 1); // an empty last cell leaves no trailing blanks
        out << line << '\n';
    };
    if (withHeader) {
        std::vector<std::string> titles;
        for (const auto &column : mColumns)
            titles.push_back(column.title);
        printRow(titles);
        std::vector<std::string> rule;
        for (std::size_t width : widths)
            rule.emplace_back(width, '-');
        printRow(rule);
    }
    for (const auto &row : mRows)
        printRow(row);
}

} // namespace gpumem::cli
