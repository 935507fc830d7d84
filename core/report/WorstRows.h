// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/ComparisonReport.h"

#include "evaluation/Ranking.h"

#include <string>
#include <vector>

namespace gpumem::report {

// The reports' table of worst under-predictions: the largest shortfalls of any model,
// largest first, at most reportedUnderPredictions rows, each job's name shortened in the
// middle to reportedJobNameLength characters; a shortened name points to a note holding
// the whole name (one note per job, however many models missed it).
struct WorstRow
{
    evaluation::UnderPrediction under;
    std::string job; // as the table shows it
    int note = 0;    // 1-based index into WorstRows::notes, or 0 for a name shown whole
};

struct WorstRows
{
    std::vector<WorstRow> rows;
    std::vector<std::string> notes; // the whole names, in the order the table first cites them
};

constexpr std::size_t reportedJobNameLength = 48;

WorstRows worstRows(const ComparisonContext &context, const evaluation::ExperimentResult &result);

} // namespace gpumem::report
