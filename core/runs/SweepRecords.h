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

// A sweep's JSON Lines file opens with one line that names the sweep, then holds
// one line per finished run:
//   {"sweep": ID, "plan": "grid epochs=5,10 …", "model": NAME, "trials": N, "digest": …}
//   {"sweep": ID, "trial": I, "trials": N, "values": {swept name: value as typed},
//    "run": the RunRecord, "digest": …}
// ID is the SHA-256 of everything the trials share (plan, model, data, settings),
// so that a merge refuses shards of different sweeps while each line stays the
// same size however large the plan; the plan is spelled out once, in the first
// line. "digest" is the SHA-256 of the line written without it, so a merge
// refuses a line edited by hand. The same arguments always give the same bytes.

// What the first line of a sweep's file holds.
struct SweepHeader
{
    std::string id;    // SHA-256 (hexadecimal) of the sweep's identity
    std::string plan;  // sweepDescription() of the plan
    std::string model; // the registry name of the model swept
    std::size_t trials = 0;
};

// Returns the header of a sweep: id is the SHA-256 of identity, the text that
// names everything its trials share.
SweepHeader sweepHeader(const std::string &identity, const SweepPlan &plan, const std::string &model,
                        std::size_t trials);

// Returns the first line (with its newline) of a sweep's file.
std::string sweepHeaderLine(const SweepHeader &header);

// Returns the line (with its newline) of one finished run of the sweep header names.
std::string sweepLine(const SweepHeader &header, const SweepTrial &trial, const RunRecord &run);

// One run's line of a sweep file as read back.
struct SweepLine
{
    std::size_t trial = 0;
    RunRecord run;
    std::string text; // the line as it was, with its newline
};

// A sweep file as read back.
struct SweepFile
{
    SweepHeader header;
    std::string headerText; // the first line as it was, with its newline
    std::vector<SweepLine> lines;
};

// Reads a sweep file (a regular file of at most maxSweepFileBytes). Throws
// io::InputError naming path and line for a file that does not open with a
// header, a line that is not a record of that sweep (a half-written last line
// included) or that no longer matches its digest.
SweepFile readSweepFile(const std::string &path);

// Reads content, the text of a sweep file named path in messages, as readSweepFile does.
SweepFile parseSweepFile(const std::string &content, const std::string &path);

// Joins the files of a sweep's shards into what one run of the whole sweep
// writes: the header, then every run's line, ordered by trial, byte for byte as
// the shards wrote them. Throws io::InputError (one line) when the files belong
// to different sweeps, a trial appears twice (overlapping shards) or one is
// missing (a shard not given or not finished), or no file holds a record.
std::string mergeSweepFiles(const std::vector<std::string> &paths);

} // namespace gpumem::runs
