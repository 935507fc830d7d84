// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Table.h"

#include <string>
#include <vector>

namespace gpumem::data {

// What a data file says about its own columns, in a small JSON file beside it
// (NAME.csv → NAME.columns.json, see docs/data-format.md):
//   {"target": "simulated_device_mib",
//    "outcomes": ["peak_allocated_mib", "simulated_reserved_mib", "simulated_device_mib"]}
// Outcomes are measured from the job's run rather than chosen before it: every
// memory figure the file records, and what was observed while it ran. One of them
// is the target; the others follow from the same run, so as features they would
// hand a model the answer.
struct ColumnNotes
{
    std::string source;                // the file the notes came from; empty when there is none
    std::string target;                // the suggested target; empty for none
    std::vector<std::string> outcomes; // in the file's order
};

// Returns the notes file that belongs to the data file csvPath: its name with the
// extension (if any, and a .gz before it) replaced by ".columns.json".
std::string columnNotesPath(const std::string &csvPath);

// Reads the notes beside csvPath; a data file without notes gets empty ones.
// Throws io::InputError naming the notes file when it is not an object of the
// two members above (strings, at most a few thousand names).
ColumnNotes readColumnNotes(const std::string &csvPath);

// The outcomes of notes that table has, other than target: the columns that must
// not be features once target is chosen.
std::vector<std::string> otherOutcomes(const Table &table, const ColumnNotes &notes, const std::string &target);

// Returns suggestedRoles(table) with notes applied: their target when the table
// has it as a numeric column, and every other outcome ignored.
std::vector<ColumnRole> suggestedRoles(const Table &table, const ColumnNotes &notes);

// One line saying which columns were ignored as other outcomes, e.g.
// "ignored 2 other outcomes of each job (gpu_cnn.columns.json): peak_allocated_mib, …";
// empty when there are none.
std::string otherOutcomesNote(const std::vector<std::string> &ignored, const ColumnNotes &notes);

} // namespace gpumem::data
