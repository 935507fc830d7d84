// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <random>
#include <vector>

namespace gpumem::data {

// Random draws that a seed fixes on every platform and standard library: the
// engine is std::mt19937_64 (the one engine whose output the standard pins down),
// and the bounded and real draws are the project's own, because the standard
// distributions differ between libraries. Not thread-safe: one per thread.
class SeededRandom
{
  public:
    explicit SeededRandom(std::uint64_t seed)
        : mEngine(seed)
    {
    }

    // Returns a uniform whole number in [0, bound); bound must be positive.
    std::uint64_t below(std::uint64_t bound);
    // Returns a uniform real number in [0, 1) with 53 random bits.
    double unit();
    // Returns the next raw 64-bit draw, e.g. to seed another generator.
    std::uint64_t next() { return mEngine(); }

  private:
    std::mt19937_64 mEngine;
};

// Returns 0..rowCount-1 in a random order fixed by seed (Fisher–Yates over
// SeededRandom). Thread-safe: a pure function of its arguments.
std::vector<Eigen::Index> shuffledRows(Eigen::Index rowCount, std::uint64_t seed);

} // namespace gpumem::data
