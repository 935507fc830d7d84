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
    std::string test;   // "paired_t" or "wilcoxon"
    std::string metric; // what was paired, e.g. "rmse per fold", "squared error per row"
    int pairs = 0;
    double statistic = 0.0; // t, or the Wilcoxon W (the smaller rank sum)
    double pValue = 1.0;    // two-sided
    bool reported = false;  // the test a report shows for this pair (see runExperiment)
};

// Returns the two-sided p-value of the paired t-test of a against b (same length
// ≥ 2): t = mean(d) / (sd(d)/√n) with d = a − b, on n − 1 degrees of freedom.
// Identical samples give t = 0 and p = 1. Thread-safe.
PairedTest pairedTTest(const std::vector<double> &a, const std::vector<double> &b);

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
