// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace gpumem::evaluation {

// One division of the rows 0..rowCount-1 of a data set into a training part and a
// test part. Both lists are sorted ascending and together hold every row exactly
// once. A plain value type: copies may be read from any thread.
struct Split
{
    std::vector<Eigen::Index> train; // Row indices to fit on, ascending.
    std::vector<Eigen::Index> test;  // Row indices to score on, ascending.
};

// Returns a random hold-out split of rowCount rows whose test part has
// round(rowCount · testFraction) rows (halves round up), clamped so that both parts
// keep at least one row. The shuffle is data::shuffledRows, so a seed gives the same split on every platform and
// standard library. Throws io::InputError, saying why in words for the user, when rowCount < 2
// or testFraction is not inside (0, 1). Thread-safe: a
// pure function of its arguments.
Split holdOutSplit(Eigen::Index rowCount, double testFraction, std::uint64_t seed);

// Returns the folds splits of shuffled k-fold cross-validation over rowCount rows:
// the rows are shuffled once (reproducibly, as in holdOutSplit) and cut into folds
// consecutive test parts, the first rowCount % folds of them one row larger, like
// scikit-learn's KFold. The test parts partition 0..rowCount-1; each train part is
// the complement of its test part. Throws io::InputError, saying why in words for
// the user, when folds < 2 or folds > rowCount. Thread-safe: a pure function of its arguments.
std::vector<Split> kFoldSplits(Eigen::Index rowCount, int folds, std::uint64_t seed);

// Returns the seed of repetition (0-based) of a repeated cross-validation: seed
// itself for repetition 0, so that one repetition is the plain k-fold, and a
// well-mixed function of both otherwise. Thread-safe.
std::uint64_t repetitionSeed(std::uint64_t seed, int repetition);

// Returns the folds splits of grouped k-fold cross-validation: groups holds one
// group label per row, and every group lands whole in exactly one test part, so a
// model is scored only on groups it never saw (e.g. architectures). The distinct
// groups are shuffled by seed and dealt in that order, each to the fold that holds
// the fewest rows so far (the lowest fold on ties), which keeps the folds near
// equal in rows while a new seed gives a new assignment. Throws io::InputError,
// in words for the user, when folds < 2 or there are fewer groups than folds.
// Thread-safe: a pure function of its arguments.
std::vector<Split> groupedKFoldSplits(const std::vector<std::int64_t> &groups, int folds, std::uint64_t seed);

} // namespace gpumem::evaluation
