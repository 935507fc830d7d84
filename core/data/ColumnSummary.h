// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"

#include <string>
#include <vector>

namespace gpumem::data {

// Descriptive statistics of one column, as `gpumem inspect` and the
// workbench's data page show them. Bad cells are left out of every statistic.
struct ColumnSummary
{
    std::int64_t present = 0; // cells that are neither missing nor invalid
    std::int64_t missing = 0;
    std::int64_t invalid = 0;
    std::size_t distinct = 0; // categorical and identifier columns
    // Numeric columns: of the values; sequence columns: of the layer count per row.
    double minimum = 0.0;
    double maximum = 0.0;
    double mean = 0.0;
    double standardDeviation = 0.0;
    std::vector<std::string> topValues;  // categorical: up to 5 most frequent values, most frequent first
    std::vector<std::string> layerTypes; // sequence: every layer type seen
    int fieldsPerLayer = 0;              // sequence
};

// Summarises column, which belongs to a table of rowCount rows.
ColumnSummary summarizeColumn(const Column &column, std::size_t rowCount);

} // namespace gpumem::data
