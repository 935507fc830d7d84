// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/ProbeCsvLine.h"

#include "io/NumberText.h"

#include <algorithm>

namespace gpumem::probe {

std::string csvCell(std::string text)
{
    for (char &character : text)
        if (character == '\n' || character == '\r')
            character = ' ';
    return io::csvField(text);
}

std::string joinCells(const std::vector<std::string> &cells)
{
    std::string line;
    for (std::size_t index = 0; index < cells.size(); ++index)
        line += (index == 0 ? "" : ",") + cells[index];
    return line;
}

std::size_t splitCsvLine(const std::string &line, std::vector<std::string> &cells)
{
    cells.clear();
    std::size_t at = 0;
    for (;;) {
        std::string cell;
        if (at < line.size() && line[at] == '"') {
            for (++at;; ++at) {
                if (at >= line.size())
                    return cells.size() + 1; // the closing quote is missing
                if (line[at] == '"') {
                    if (at + 1 < line.size() && line[at + 1] == '"') {
                        cell += '"';
                        ++at;
                        continue;
                    }
                    ++at;
                    break;
                }
                cell += line[at];
            }
            if (at < line.size() && line[at] != ',')
                return cells.size() + 1; // text after the closing quote
        } else {
            const std::size_t end = std::min(line.find(',', at), line.size());
            cell = line.substr(at, end - at);
            if (cell.find('"') != std::string::npos)
                return cells.size() + 1;
            at = end;
        }
        cells.push_back(std::move(cell));
        if (at >= line.size())
            return 0;
        ++at; // the comma
    }
}

} // namespace gpumem::probe
