// SPDX-License-Identifier: GPL-3.0-or-later
// Paired tests against values derived by hand or from closed forms of Student's t.
#include "evaluation/Significance.h"

#include <QtTest>

#include <cmath>

using namespace gpumem::evaluation;

class TestSignificance : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void studentTailMatchesClosedFormsForSmallDegrees();
    void pairedTTestOnHandComputedDifferences();
    void identicalSamplesGiveNoEvidence();
    void correctedTestWidensTheVarianceOfRepeatedFolds();
    void wilcoxonExactOnHandCountedExample();
    void wilcoxonFivePairsCannotGoBelowOneSixteenth();
    void wilcoxonNormalApproximationForManyPairs();
    void mismatchedLengthsAreRefused();
};

void TestSignificance::studentTailMatchesClosedFormsForSmallDegrees()
{
    // ν = 1 is the Cauchy distribution: P(|T| ≥ t) = 1 − 2·atan(t)/π.
    QVERIFY(std::abs(studentTTwoSided(1.5, 1) - (1.0 - 2.0 * std::atan(1.5) / M_PI)) < 1e-10);
    // ν = 3: P(T > t) = 1/2 − (atan(u) + u/(1 + u²))/π with u = t/√3.
    const double u = 2.0 / std::sqrt(3.0);
    QVERIFY(std::abs(studentTTwoSided(2.0, 3) - 2.0 * (0.5 - (std::atan(u) + u / (1.0 + u * u)) / M_PI)) < 1e-10);
    // Large ν tends to the normal distribution: P(|Z| ≥ 1.96) ≈ 0.05.
    QVERIFY(std::abs(studentTTwoSided(1.959964, 1e7) - 0.05) < 1e-5);
    QCOMPARE(studentTTwoSided(0.0, 5), 1.0);
}

void TestSignificance::pairedTTestOnHandComputedDifferences()
{
    // d = a − b = 2.1, 0.7, 0.9, 1.6, 0.9: mean 1.24, Σ(d − mean)² = 1.392,
    // sd = √(1.392/4) = 0.589915, se = sd/√5 = 0.263818, t = 4.700208.
    const std::vector<double> a = {30.1, 28.2, 29.0, 31.5, 27.9};
    const std::vector<double> b = {28.0, 27.5, 28.1, 29.9, 27.0};
    const PairedTest test = pairedTTest(a, b);
    QCOMPARE(test.test, std::string("paired_t"));
    QCOMPARE(test.pairs, 5);
    QVERIFY(std::abs(test.statistic - 4.700208) < 1e-5);
    // ν = 4 in closed form: F(t) = 1/2 + (3/8)·s·(1 − t²/(12·(1 + t²/4))) with s = t/√(1 + t²/4).
    const double t = test.statistic;
    const double s = t / std::sqrt(1.0 + t * t / 4.0);
    const double upper = 0.5 - 0.375 * s * (1.0 - t * t / (12.0 * (1.0 + t * t / 4.0)));
    QVERIFY(std::abs(test.pValue - 2.0 * upper) < 1e-9);
    QVERIFY(std::abs(test.pValue - 0.009307) < 1e-5);
    // Swapping the samples flips the sign, not the p-value.
    const PairedTest swapped = pairedTTest(b, a);
    QVERIFY(std::abs(swapped.statistic + test.statistic) < 1e-12);
    QVERIFY(std::abs(swapped.pValue - test.pValue) < 1e-12);
}

void TestSignificance::correctedTestWidensTheVarianceOfRepeatedFolds()
{
    // Two repetitions of 3 folds: d = 1, 2, 3, 1, 2, 3, mean 2, var = 4/5 = 0.8. With
    // n₂/n₁ = 1/2 the variance factor is 1/6 + 1/2 = 2/3, so t = 2/√(0.8·2/3) = 2.738613
    // on 5 degrees of freedom: p = 0.0408594 (scipy.stats.t.sf(t, 5)·2). The plain
    // paired t-test of the same pairs says t = 5.477226, twice as sure.
    const std::vector<double> a = {11, 12, 13, 11, 12, 13};
    const std::vector<double> b = {10, 10, 10, 10, 10, 10};
    const PairedTest test = correctedResampledTTest(a, b, 0.5);
    QCOMPARE(test.test, std::string("corrected_t"));
    QCOMPARE(test.pairs, 6);
    QVERIFY(std::abs(test.statistic - 2.738613) < 1e-6);
    QVERIFY(std::abs(test.pValue - 0.0408594) < 1e-6);
    QVERIFY(std::abs(pairedTTest(a, b).statistic - 5.477226) < 1e-6);
    QCOMPARE(correctedResampledTTest(a, a, 0.5).pValue, 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, correctedResampledTTest(a, b, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, correctedResampledTTest(a, b, std::nan("")));
}

void TestSignificance::identicalSamplesGiveNoEvidence()
{
    const std::vector<double> a = {1.0, 2.0, 3.0};
    QCOMPARE(pairedTTest(a, a).pValue, 1.0);
    QCOMPARE(wilcoxonSignedRank(a, a).pValue, 1.0);
    // A constant non-zero shift has zero spread: certain for the t-test.
    QCOMPARE(pairedTTest({2.0, 3.0, 4.0}, a).pValue, 0.0);
}

void TestSignificance::wilcoxonExactOnHandCountedExample()
{
    // Differences 1, 2, 3, 4, 5, −6: ranks 1..6, W+ = 15, W− = 6, so W = 6.
    // Subsets of {1..6} with sum ≤ 6: sums 0,1,2 one each, 3 two, 4 two, 5 three,
    // 6 four: 14 of 64 sign patterns, two-sided p = 2·14/64 = 0.4375.
    const PairedTest test = wilcoxonSignedRank({1, 2, 3, 4, 5, -6}, {0, 0, 0, 0, 0, 0});
    QCOMPARE(test.test, std::string("wilcoxon"));
    QCOMPARE(test.statistic, 6.0);
    QVERIFY(std::abs(test.pValue - 0.4375) < 1e-12);
}

void TestSignificance::wilcoxonFivePairsCannotGoBelowOneSixteenth()
{
    // Every difference positive: W = 0, p = 2/2⁵ = 0.0625, the smallest possible with 5 pairs.
    const PairedTest test = wilcoxonSignedRank({5, 6, 7, 8, 9}, {4, 4, 4, 4, 4});
    QCOMPARE(test.statistic, 0.0);
    QVERIFY(std::abs(test.pValue - 0.0625) < 1e-12);
}

void TestSignificance::wilcoxonNormalApproximationForManyPairs()
{
    // d = 1..30, negative at multiples of 3: W− = 3(1 + … + 10) = 165, W+ = 300,
    // mean 232.5, variance 30·31·61/24 = 2363.75, z = (67.5 − 0.5)/48.6184 = 1.378088,
    // p = erfc(z/√2) = 0.168179 (scipy.stats.wilcoxon with correction gives the same).
    std::vector<double> differences;
    for (int i = 1; i <= 30; ++i)
        differences.push_back(i % 3 == 0 ? -i : i);
    const PairedTest test = wilcoxonSignedRank(differences, std::vector<double>(30, 0.0));
    QCOMPARE(test.statistic, 165.0);
    QVERIFY(std::abs(test.pValue - 0.1681790) < 1e-6);
}

void TestSignificance::mismatchedLengthsAreRefused()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pairedTTest({1, 2}, {1}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pairedTTest({1}, {1}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, wilcoxonSignedRank({1, 2}, {1}));
}

QTEST_APPLESS_MAIN(TestSignificance)
#include "test_Significance.moc"
