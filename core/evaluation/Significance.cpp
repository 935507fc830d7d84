// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/Significance.h"

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace gpumem::evaluation {

namespace {

double standardNormalTwoSided(double z)
{
    return std::erfc(std::abs(z) / std::sqrt(2.0));
}

void checkPairs(const std::vector<double> &a, const std::vector<double> &b, std::size_t minimum, const char *test)
{
    if (a.size() != b.size())
        throw std::invalid_argument(std::string(test) + ": the samples differ in length");
    if (a.size() < minimum)
        throw std::invalid_argument(std::string(test) + ": needs at least " + std::to_string(minimum) + " pairs");
}

// Counts, for n ranks 1..n, how many of the 2^n sign assignments give each
// positive rank sum 0..n(n+1)/2 (the exact null distribution of W+).
std::vector<double> signedRankCounts(int n)
{
    const int maximum = n * (n + 1) / 2;
    std::vector<double> counts(static_cast<std::size_t>(maximum) + 1, 0.0);
    counts[0] = 1.0;
    for (int rank = 1; rank <= n; ++rank)
        for (int sum = maximum; sum >= rank; --sum)
            counts[static_cast<std::size_t>(sum)] += counts[static_cast<std::size_t>(sum - rank)];
    return counts;
}

} // namespace

double studentTTwoSided(double t, double degreesOfFreedom)
{
    if (!(degreesOfFreedom > 0.0))
        throw std::invalid_argument("studentTTwoSided: degrees of freedom must be positive");
    if (std::isnan(t))
        return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(t))
        return 0.0;
    // The complement keeps its precision in the far tail, where 1 − cdf would round to 0.
    const boost::math::students_t distribution(degreesOfFreedom);
    return 2.0 * boost::math::cdf(boost::math::complement(distribution, std::abs(t)));
}

namespace {

// The t-test of the differences a − b whose mean has the variance s² · varianceFactor
// (s² the sample variance of the differences), on n − 1 degrees of freedom.
PairedTest tTestOfDifferences(const std::vector<double> &a, const std::vector<double> &b, double varianceFactor,
                              const char *name)
{
    checkPairs(a, b, 2, name);
    const auto n = static_cast<double>(a.size());
    double mean = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        mean += a[i] - b[i];
    mean /= n;
    double squares = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        squares += (a[i] - b[i] - mean) * (a[i] - b[i] - mean);
    const double standardError = std::sqrt(squares / (n - 1.0) * varianceFactor);

    PairedTest result;
    result.pairs = static_cast<int>(a.size());
    if (standardError == 0.0) {
        // Constant differences: no evidence when they are all zero, certainty otherwise.
        result.statistic = mean == 0.0 ? 0.0 : std::copysign(std::numeric_limits<double>::infinity(), mean);
        result.pValue = mean == 0.0 ? 1.0 : 0.0;
        return result;
    }
    result.statistic = mean / standardError;
    result.pValue = studentTTwoSided(result.statistic, n - 1.0);
    return result;
}

} // namespace

PairedTest pairedTTest(const std::vector<double> &a, const std::vector<double> &b)
{
    PairedTest result = tTestOfDifferences(a, b, 1.0 / static_cast<double>(a.size()), "pairedTTest");
    result.test = "paired_t";
    return result;
}

PairedTest correctedResampledTTest(const std::vector<double> &a, const std::vector<double> &b, double testToTrainRatio)
{
    if (!(testToTrainRatio > 0.0) || !std::isfinite(testToTrainRatio))
        throw std::invalid_argument("correctedResampledTTest: the test-to-train ratio must be positive and finite");
    // Nadeau and Bengio's correction: the fits share training rows, so their scores are
    // positively correlated and the plain 1/n under-states the variance of the mean.
    PairedTest result =
        tTestOfDifferences(a, b, 1.0 / static_cast<double>(a.size()) + testToTrainRatio, "correctedResampledTTest");
    result.test = "corrected_t";
    return result;
}

PairedTest wilcoxonSignedRank(const std::vector<double> &a, const std::vector<double> &b)
{
    checkPairs(a, b, 1, "wilcoxonSignedRank");
    std::vector<double> differences;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            differences.push_back(a[i] - b[i]);

    PairedTest result;
    result.test = "wilcoxon";
    result.pairs = static_cast<int>(a.size());
    const auto n = static_cast<int>(differences.size());
    if (n == 0)
        return result; // statistic 0, p 1: nothing differs

    std::vector<std::size_t> order(differences.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t left, std::size_t right) {
        return std::abs(differences[left]) < std::abs(differences[right]);
    });
    // Mid-ranks for tied magnitudes; tieCorrection collects Σ(t³ − t) for the variance.
    std::vector<double> ranks(differences.size());
    double tieCorrection = 0.0;
    for (std::size_t start = 0; start < order.size();) {
        std::size_t end = start + 1;
        while (end < order.size() && std::abs(differences[order[end]]) == std::abs(differences[order[start]]))
            ++end;
        const double midRank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2.0;
        for (std::size_t k = start; k < end; ++k)
            ranks[order[k]] = midRank;
        const auto tied = static_cast<double>(end - start);
        tieCorrection += tied * tied * tied - tied;
        start = end;
    }
    double positive = 0.0;
    for (std::size_t i = 0; i < differences.size(); ++i)
        if (differences[i] > 0.0)
            positive += ranks[i];
    // In doubles: n(n + 1) overflows an int beyond 46,340 differing rows (a large hold-out).
    const double total = static_cast<double>(n) * (n + 1.0) / 2.0;
    const double smaller = std::min(positive, total - positive);
    result.statistic = smaller;

    if (tieCorrection == 0.0 && n <= 25) {
        const std::vector<double> counts = signedRankCounts(n);
        double atOrBelow = 0.0;
        for (int sum = 0; sum <= static_cast<int>(smaller); ++sum)
            atOrBelow += counts[static_cast<std::size_t>(sum)];
        result.pValue = std::min(1.0, 2.0 * atOrBelow / std::ldexp(1.0, n));
        return result;
    }
    const double mean = total / 2.0;
    const double variance = n * (n + 1.0) * (2.0 * n + 1.0) / 24.0 - tieCorrection / 48.0;
    if (variance <= 0.0)
        return result;
    const double z = std::max(0.0, std::abs(smaller - mean) - 0.5) / std::sqrt(variance);
    result.pValue = std::min(1.0, standardNormalTwoSided(z));
    return result;
}

} // namespace gpumem::evaluation
