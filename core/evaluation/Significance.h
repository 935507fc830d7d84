// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace gpumem::evaluation {

// A paired comparison of two models' errors over the same folds (or rows).
struct PairedTest
{
    std::string model;  // the model tested
    std::string versus; // the reference (the best model)
    std::string test;   // "paired_t", "wilcoxon" or "corrected_t"
    std::string metric; // what was paired, e.g. "rmse per fold", "squared error per row"
    int pairs = 0;
    double statistic = 0.0; // t, or the Wilcoxon W (the smaller rank sum)
    double pValue = 1.0;    // two-sided
    bool reported =
        false; // the test a report shows for this pair (see runExperiment); never below minimumReportedPairs
};

// The fewest pairs over which any report shows a test: below it one fold more or
// less swings the p-value by orders of magnitude (2 folds leave the t-test one
// degree of freedom), so a star would say more than the data do. Every front-end
// follows runExperiment's `reported` flag, which applies this rule.
constexpr int minimumReportedPairs = 5;

// From this many pairs a single comparison reports the Wilcoxon signed-rank test
// rather than the paired t-test: with fewer the exact test cannot reach p < 0.05.
constexpr int minimumWilcoxonPairs = 6;

// Returns the two-sided p-value of the paired t-test of a against b (same length
// ≥ 2): t = mean(d) / (sd(d)/√n) with d = a − b, on n − 1 degrees of freedom.
// Identical samples give t = 0 and p = 1. Thread-safe.
PairedTest pairedTTest(const std::vector<double> &a, const std::vector<double> &b);

// Returns the two-sided p-value of the corrected resampled t-test of a against b
// (same length n ≥ 2), the test that stays valid when the n pairs come from r
// repetitions of k-fold cross-validation (Nadeau and Bengio 2003; Bouckaert and
// Frank 2004 call it the corrected repeated k-fold cv test): with d = a − b,
// t = mean(d) / √((1/n + n₂/n₁) · var(d)) on n − 1 degrees of freedom, where
// testToTrainRatio = n₂/n₁ is the test rows over the training rows of one fit
// (1/(k−1) for k folds). The plain paired t-test, whose variance term is 1/n
// alone, rejects far too often on such pairs. Throws std::invalid_argument for
// a ratio that is not positive and finite. Thread-safe.
PairedTest correctedResampledTTest(const std::vector<double> &a, const std::vector<double> &b, double testToTrainRatio);

// Returns the two-sided p-value of the Wilcoxon signed-rank test of a against b
// (same length): zero differences are dropped, ties get mid-ranks; exact for up
// to 25 non-zero pairs without ties, normal approximation with continuity and tie
// correction otherwise. With 5 pairs the smallest possible p is 0.0625, which is
// why comparisons over few folds report the t-test. Thread-safe.
PairedTest wilcoxonSignedRank(const std::vector<double> &a, const std::vector<double> &b);

// Returns the two-sided tail probability P(|T| ≥ |t|) of Student's t with
// degreesOfFreedom > 0.
double studentTTwoSided(double t, double degreesOfFreedom);

} // namespace gpumem::evaluation
