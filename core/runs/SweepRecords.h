// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runs/RunRecord.h"
#include "runs/SweepPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::runs {

// The most a sweep's JSON Lines file may hold when read back (a merge).
inline constexpr std::uint64_t maxSweepFileBytes = 1ull << 30;

// Returns one line (with its newline) of a sweep's JSON Lines file:
// {"sweep": identity, "trial": index, "trials": count, "values": {swept name:
// value as typed}, "run": the RunRecord, "digest": SHA-256 of the line without
// it}. identity names everything the trials share (plan, model, data, settings),
// so that a merge refuses shards of different sweeps; the digest makes it refuse
// a record edited by hand. The same arguments always give the same bytes.
std::string sweepLine(const std::string &identity, const SweepTrial &trial, std::size_t trials, const RunRecord &run);

// One line of a sweep file as read back.
struct SweepLine
{
    std::string identity;
    std::size_t trial = 0;
    std::size_t trials = 0;
    RunRecord run;
    std::string text; // the line as it was, with its newline
};

// Reads the lines of a sweep file. Throws io::InputError naming path and line
// for a line that is not a sweep record (a half-written last line included) or
// that no longer matches its digest.
std::vector<SweepLine> readSweepFile(const std::string &path);

// Joins the files of a sweep's shards into what one run of the whole sweep
// writes: every line, ordered by trial, byte for byte as the shards wrote it.
// Throws io::InputError (one line) when the files belong to different sweeps,
// a trial appears twice (overlapping shards) or one is missing (a shard not
// given or not finished), or no file holds a record.
std::string mergeSweepFiles(const std::vector<std::string> &paths);

} // namespace gpumem::runs
