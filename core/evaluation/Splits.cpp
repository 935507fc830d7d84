// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/Splits.h"

#include "data/SeededRandom.h"
#include "io/InputError.h"
#include "io/NumberText.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
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
    if (folds < 2) {
        throw io::InputError("cross-validation needs at least 2 folds, not " + std::to_string(folds));
    }
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

} // namespace gpumem::evaluation
