#include "evaluation/Splits.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpumem::evaluation {

namespace {

// std::mt19937_64 is the one engine whose output sequence the standard pins down
// completely; the distributions and std::shuffle are left to each library, which
// would make splits differ between platforms.
using Engine = std::mt19937_64;

static_assert(Engine::min() == 0 && Engine::max() == std::numeric_limits<std::uint64_t>::max(),
              "drawBelow relies on the engine producing every 64-bit value");

// Returns a uniform value in [0, bound). Taking the draw modulo bound alone would
// favour small results whenever bound does not divide 2^64, so draws from the
// incomplete last block are rejected. bound must be positive.
std::uint64_t drawBelow(Engine &engine, std::uint64_t bound)
{
    // 2^64 mod bound, computed without 128-bit arithmetic: unsigned negation wraps
    // to 2^64 - bound, which has the same remainder.
    const std::uint64_t rejectBelow = (std::uint64_t{0} - bound) % bound;
    for (;;) {
        const std::uint64_t draw = engine();
        if (draw >= rejectBelow) {
            return draw % bound;
        }
    }
}

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

std::vector<Eigen::Index> shuffledRows(Eigen::Index rowCount, std::uint64_t seed)
{
    std::vector<Eigen::Index> rows(static_cast<std::size_t>(rowCount));
    for (std::size_t index = 0; index < rows.size(); ++index) {
        rows[index] = static_cast<Eigen::Index>(index);
    }
    Engine engine(seed);
    // Fisher–Yates from the back: position i swaps with a uniform position in
    // [0, i], which makes every permutation equally likely.
    for (std::size_t index = rows.size(); index > 1; --index) {
        const std::size_t last = index - 1;
        const auto other = static_cast<std::size_t>(drawBelow(engine, static_cast<std::uint64_t>(index)));
        std::swap(rows[last], rows[other]);
    }
    return rows;
}

Split holdOutSplit(Eigen::Index rowCount, double testFraction, std::uint64_t seed)
{
    if (rowCount < 2) {
        throw std::invalid_argument("holdOutSplit: need at least 2 rows to hold some out, got " +
                                    std::to_string(rowCount));
    }
    // Written as a negated range test so that NaN is rejected too.
    if (!(testFraction > 0.0 && testFraction < 1.0)) {
        throw std::invalid_argument("holdOutSplit: the test fraction must lie strictly between 0 and 1, not " +
                                    std::to_string(testFraction));
    }

    const double wanted = std::round(static_cast<double>(rowCount) * testFraction);
    const auto testSize = static_cast<Eigen::Index>(std::clamp(wanted, 1.0, static_cast<double>(rowCount - 1)));

    return splitAround(shuffledRows(rowCount, seed), 0, static_cast<std::size_t>(testSize));
}

std::vector<Split> kFoldSplits(Eigen::Index rowCount, int folds, std::uint64_t seed)
{
    if (folds < 2) {
        throw std::invalid_argument("kFoldSplits: need at least 2 folds, got " + std::to_string(folds));
    }
    if (folds > rowCount) {
        throw std::invalid_argument("kFoldSplits: " + std::to_string(folds) +
                                    " folds need at least as many rows, got " + std::to_string(rowCount));
    }

    const std::vector<Eigen::Index> shuffled = shuffledRows(rowCount, seed);
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
