// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/Coverage.h"

#include "io/InputError.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace gpumem::calibration {

double parseCoverage(const std::string &text, const std::string &option)
{
    const std::string refusal =
        option + " takes a number strictly between 0 and 1, not " + io::quoteForMessage(text, 40);
    if (text.empty())
        throw io::InputError(refusal);
    char *end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !(value > 0.0 && value < 1.0))
        throw io::InputError(refusal);
    return value;
}

void checkCoverage(double coverage, const std::string &what)
{
    // Written as a negated range test so that NaN is refused too.
    if (!(coverage > 0.0 && coverage < 1.0))
        throw io::InputError(what + " must be strictly between 0 and 1, not " + std::to_string(coverage));
}

std::size_t conformalRank(std::size_t scoreCount, double coverage)
{
    const double position = static_cast<double>(scoreCount + 1) * coverage;
    auto rank = static_cast<std::size_t>(std::ceil(position));
    // (n + 1) · c is often a whole number that rounding pushed a hair above itself
    // (20 · 0.95 = 19.000000000000004); ceil would then ask for one score more than
    // the guarantee needs.
    if (rank > 0 && static_cast<double>(rank) - position > 1.0 - 1e-9)
        --rank;
    return rank == 0 ? 1 : rank;
}

std::size_t requiredScoreCount(double coverage)
{
    checkCoverage(coverage);
    // k <= n holds from n = c / (1 - c) on; start just below and step up past rounding.
    const double estimate = std::floor(coverage / (1.0 - coverage));
    auto count = static_cast<std::size_t>(estimate > 2.0 ? estimate - 2.0 : 1.0);
    while (conformalRank(count, coverage) > count)
        ++count;
    return count;
}

} // namespace gpumem::calibration
