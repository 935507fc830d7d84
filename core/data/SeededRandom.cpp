// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/SeededRandom.h"

#include <limits>
#include <utility>

namespace gpumem::data {

static_assert(std::mt19937_64::min() == 0 && std::mt19937_64::max() == std::numeric_limits<std::uint64_t>::max(),
              "below() relies on the engine producing every 64-bit value");

std::uint64_t SeededRandom::below(std::uint64_t bound)
{
    // Taking a draw modulo bound alone would favour small results whenever bound
    // does not divide 2^64, so draws from the incomplete last block are rejected.
    // 2^64 mod bound is computed without 128-bit arithmetic: unsigned negation
    // wraps to 2^64 - bound, which has the same remainder.
    const std::uint64_t rejectBelow = (std::uint64_t{0} - bound) % bound;
    for (;;) {
        const std::uint64_t draw = mEngine();
        if (draw >= rejectBelow)
            return draw % bound;
    }
}

double SeededRandom::unit()
{
    return static_cast<double>(mEngine() >> 11) * 0x1.0p-53;
}

std::vector<Eigen::Index> shuffledRows(Eigen::Index rowCount, std::uint64_t seed)
{
    std::vector<Eigen::Index> rows(static_cast<std::size_t>(rowCount));
    for (std::size_t index = 0; index < rows.size(); ++index)
        rows[index] = static_cast<Eigen::Index>(index);
    SeededRandom random(seed);
    // Fisher–Yates from the back: position i swaps with a uniform position in
    // [0, i], which makes every permutation equally likely.
    for (std::size_t index = rows.size(); index > 1; --index) {
        const auto other = static_cast<std::size_t>(random.below(static_cast<std::uint64_t>(index)));
        std::swap(rows[index - 1], rows[other]);
    }
    return rows;
}

} // namespace gpumem::data
