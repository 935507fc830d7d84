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

} // namespace gpumem::evaluation
