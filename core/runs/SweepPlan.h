// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpumem::runs {

// One hyperparameter of a sweep and the values it takes, as typed ("epochs", {"5", "10"}).
struct SweepParameter
{
    std::string name;
    std::vector<std::string> values;
};

enum class SweepMode
{
    Grid,   // every combination of the values
    Random, // randomTrials distinct combinations, drawn with the seed
};

// What a sweep tries: hyperparameters and their values, and whether every
// combination or a seeded random choice of them.
struct SweepPlan
{
    std::vector<SweepParameter> parameters;
    SweepMode mode = SweepMode::Grid;
    std::size_t randomTrials = 0; // Random: how many combinations
    std::uint64_t seed = 42;      // Random: the draws; the same seed gives the same trials everywhere
};

// One trial of a sweep: its number in the plan and the value of each swept hyperparameter.
struct SweepTrial
{
    std::size_t index = 0;
    std::vector<std::pair<std::string, std::string>> assignments; // (name, value as typed)
};

// The most trials one plan may hold.
inline constexpr std::size_t maxSweepTrials = 100000;

// Parses "name=v1,v2,…" as given to --param. Throws io::InputError when the name
// or a value is empty.
SweepParameter parseSweepParameter(const std::string &text);

// Returns the trials of plan in a fixed order: for a grid, the first parameter
// varies slowest; for a random plan, the order of the draws (distinct
// combinations, data::SeededRandom, so the same on every platform). Throws
// io::InputError when the plan has no parameter, a parameter is named twice or
// has no value, a random plan asks for no trial or for more than the
// combinations there are, or there would be more than maxSweepTrials trials.
// Thread-safe: a pure function of its argument.
std::vector<SweepTrial> expandSweep(const SweepPlan &plan);

// Returns the trials of shard number shard (0-based) of shards: those whose
// index leaves remainder shard when divided by shards, in order. The shards are
// disjoint and together hold every trial. Throws io::InputError unless shard < shards.
std::vector<SweepTrial> sweepShard(const std::vector<SweepTrial> &trials, std::size_t shard, std::size_t shards);

// Returns a canonical one-line description of plan, e.g. "grid epochs=5,10
// learning_rate=0.001,0.01" or "random 8 seed 7 epochs=…": two runs of one plan
// give the same text, so that a merge can tell shards of different plans apart.
std::string sweepDescription(const SweepPlan &plan);

// Returns a trial's values as people type them, e.g. "epochs=5 learning_rate=0.01".
std::string assignmentsText(const SweepTrial &trial);

} // namespace gpumem::runs
