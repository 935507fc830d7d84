// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/Splits.h"

#include "data/SeededRandom.h"
#include "io/InputError.h"
#include "io/NumberText.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <utility>

namespace gpumem::evaluation {

namespace {

// Builds a split whose test part is shuffled[testBegin, testEnd); sorting makes
// the result independent of the order of rows inside a part.
Split splitAround(const std::vector<Eigen::Index> &shuffled, std::size_t testBegin, std::size_t testEnd)
{
    Split split;
    split.test.assign(shuffled.begin() + static_cast<std::ptrdiff_t>(testBegin),
                      shuffled.begin() + static_cast<std::ptrdiff_t>(testEnd));
    split.train.reserve(shuffled.size() - split.test.size());
    split.train.insert(split.train.end(), shuffled.begin(), shuffled.begin() + static_cast<std::ptrdiff_t>(testBegin));
    split.train.insert(split.train.end(), shuffled.begin() + static_cast<std::ptrdiff_t>(testEnd), shuffled.end());
    std::sort(split.test.begin(), split.test.end());
    std::sort(split.train.begin(), split.train.end());
    return split;
}

void requireTwoFolds(int folds)
{
    if (folds < 2) {
        throw io::InputError("cross-validation needs at least 2 folds, not " + std::to_string(folds));
    }
}

} // namespace

Split holdOutSplit(Eigen::Index rowCount, double testFraction, std::uint64_t seed)
{
    // Both conditions come from the user (a small file, --test-fraction), so they are input errors.
    if (rowCount < 2) {
        throw io::InputError(
            "a hold-out split needs at least 2 rows, one to train on and one to test on; the data has " +
            std::to_string(rowCount));
    }
    // Written as a negated range test so that NaN is rejected too.
    if (!(testFraction > 0.0 && testFraction < 1.0)) {
        throw io::InputError("the test fraction must lie strictly between 0 and 1, not " +
                             io::formattedNumber("%g", testFraction));
    }

    const double wanted = std::round(static_cast<double>(rowCount) * testFraction);
    const auto testSize = static_cast<Eigen::Index>(std::clamp(wanted, 1.0, static_cast<double>(rowCount - 1)));

    return splitAround(data::shuffledRows(rowCount, seed), 0, static_cast<std::size_t>(testSize));
}

std::vector<Split> kFoldSplits(Eigen::Index rowCount, int folds, std::uint64_t seed)
{
    requireTwoFolds(folds);
    // Every fold tests at least one row.
    if (folds > rowCount) {
        throw io::InputError(std::to_string(folds) + "-fold cross-validation needs at least " + std::to_string(folds) +
                             " rows, the data has " + std::to_string(rowCount) + "; use fewer folds");
    }

    const std::vector<Eigen::Index> shuffled = data::shuffledRows(rowCount, seed);
    const auto foldCount = static_cast<std::size_t>(folds);
    const std::size_t baseSize = shuffled.size() / foldCount;
    const std::size_t largerFolds = shuffled.size() % foldCount;

    std::vector<Split> splits;
    splits.reserve(foldCount);
    std::size_t testBegin = 0;
    for (std::size_t fold = 0; fold < foldCount; ++fold) {
        const std::size_t testEnd = testBegin + baseSize + (fold < largerFolds ? 1 : 0);
        splits.push_back(splitAround(shuffled, testBegin, testEnd));
        testBegin = testEnd;
    }
    return splits;
}

std::uint64_t repetitionSeed(std::uint64_t seed, int repetition)
{
    if (repetition == 0)
        return seed;
    // SplitMix64's finaliser: neighbouring seeds and repetitions give unrelated shuffles.
    std::uint64_t mixed = seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(repetition);
    mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9ULL;
    mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EBULL;
    return mixed ^ (mixed >> 31);
}

std::vector<Split> groupedKFoldSplits(const std::vector<std::int64_t> &groups, int folds, std::uint64_t seed)
{
    requireTwoFolds(folds);
    // Rows of each group in ascending order; the map orders the groups by label, so the
    // shuffle below, not the order of the rows, decides the assignment.
    std::map<std::int64_t, std::vector<Eigen::Index>> rowsOfGroup;
    for (std::size_t row = 0; row < groups.size(); ++row)
        rowsOfGroup[groups[row]].push_back(static_cast<Eigen::Index>(row));
    if (rowsOfGroup.size() < static_cast<std::size_t>(folds)) {
        throw io::InputError(std::to_string(folds) + " grouped folds need at least " + std::to_string(folds) +
                             " groups, the data has " + std::to_string(rowsOfGroup.size()) + "; use fewer folds");
    }

    std::vector<const std::vector<Eigen::Index> *> members;
    members.reserve(rowsOfGroup.size());
    for (const auto &[label, rows] : rowsOfGroup)
        members.push_back(&rows);
    const auto foldCount = static_cast<std::size_t>(folds);
    std::vector<std::vector<Eigen::Index>> testRows(foldCount);
    for (Eigen::Index position : data::shuffledRows(static_cast<Eigen::Index>(members.size()), seed)) {
        const auto smallest =
            std::min_element(testRows.begin(), testRows.end(),
                             [](const auto &left, const auto &right) { return left.size() < right.size(); });
        const auto &rows = *members[static_cast<std::size_t>(position)];
        smallest->insert(smallest->end(), rows.begin(), rows.end());
    }

    std::vector<Split> splits(foldCount);
    for (std::size_t fold = 0; fold < foldCount; ++fold) {
        Split &split = splits[fold];
        split.test = std::move(testRows[fold]);
        std::sort(split.test.begin(), split.test.end());
        std::vector<char> isTest(groups.size(), 0);
        for (Eigen::Index row : split.test)
            isTest[static_cast<std::size_t>(row)] = 1;
        for (std::size_t row = 0; row < groups.size(); ++row)
            if (!isTest[row])
                split.train.push_back(static_cast<Eigen::Index>(row));
    }
    return splits;
}

} // namespace gpumem::evaluation
