// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>

namespace gpumem::calibration {

// Coverage c is the share of new jobs whose upper bound must hold their actual
// peak memory: P(actual > upper_bound) <= 1 - c. Valid values lie strictly inside (0, 1).

// Parses an option's value as a coverage, e.g. parseCoverage("0.95", "--coverage").
// Throws io::InputError "--coverage takes a number strictly between 0 and 1, not '1.5'".
double parseCoverage(const std::string &text, const std::string &option);

// Throws io::InputError naming what when coverage is not strictly inside (0, 1) (NaN included).
void checkCoverage(double coverage, const std::string &what = "the coverage");

// Returns the 1-based rank k = ceil((n + 1) · coverage) of the calibration score
// that split conformal prediction takes as its margin among n scores; a k above n
// means n scores are too few for that coverage. Thread-safe.
std::size_t conformalRank(std::size_t scoreCount, double coverage);

// Returns the fewest scores n with conformalRank(n, coverage) <= n, i.e. the
// smallest calibration that can serve coverage. Thread-safe.
std::size_t requiredScoreCount(double coverage);

} // namespace gpumem::calibration
