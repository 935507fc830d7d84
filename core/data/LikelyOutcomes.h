// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnNotes.h"
#include "data/ColumnRoles.h"
#include "data/Table.h"

#include <string>
#include <vector>

namespace gpumem::data {

// A feature column that looks measured by the same run as the target rather than
// chosen before it, and why it looks so. Such a column hands a model the answer: a
// utilisation counter recorded while the job ran says as much about its memory as
// the memory itself, and no user has it before running the job.
struct LikelyOutcome
{
    std::string column;
    std::string reason; // e.g. "named like a counter measured while the job ran"
};

// The feature columns of table that look like outcomes of the target's run, in table
// order: named like a counter of the run (utilisation, SM activity, power,
// temperature, clocks, time, throughput), or, after the target in the file, a
// statistic of the run like the target (Avg …, Max … beside a Max … target), another
// memory figure, or a numeric column that follows the target almost exactly (|r| of
// at least 0.98 over the rows both hold). Without a target among roles, the first of
// targetCandidates(table) stands for it; empty when there is none.
std::vector<LikelyOutcome> likelyOutcomes(const Table &table, const std::vector<ColumnRole> &roles);

// The same where the data file's column notes say nothing: a file with notes names
// its own outcomes (ColumnNotes.h), so nothing is asked of it.
std::vector<LikelyOutcome> likelyOutcomes(const Table &table, const std::vector<ColumnRole> &roles,
                                          const ColumnNotes &notes);

// The one line every front-end shows for them, naming the columns, why, and what to
// do; empty for none.
std::string likelyOutcomesNote(const std::vector<LikelyOutcome> &outcomes);

} // namespace gpumem::data
