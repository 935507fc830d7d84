// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 52: the significance marks and legend are described once, in report/, and
// every report format and front-end shows that one description.
#include "evaluation/Experiment.h"
#include "report/SignificanceLegend.h"

#include <QtTest>

using namespace gpumem;

namespace {

// A result of `folds` single-repetition folds whose second model was tested against
// the first with `test`, reported as runExperiment reports it.
evaluation::ExperimentResult resultWith(std::size_t folds, int repeats, const std::string &test, bool reported)
{
    evaluation::ExperimentResult result;
    result.best = "decision_tree";
    result.repeats = repeats;
    result.splits.resize(folds);
    evaluation::PairedTest paired;
    paired.model = "random_forest";
    paired.versus = result.best;
    paired.test = test;
    paired.metric = "rmse per fold";
    paired.pairs = static_cast<int>(folds);
    paired.pValue = 0.03;
    paired.reported = reported;
    result.significance = {paired};
    return result;
}

} // namespace

class TestSignificanceLegend : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void starsFollowTheThresholds_data()
    {
        QTest::addColumn<double>("p");
        QTest::addColumn<QString>("stars");
        QTest::newRow("0.0099") << 0.0099 << QStringLiteral("**");
        QTest::newRow("0.01") << 0.01 << QStringLiteral("*");
        QTest::newRow("0.0499") << 0.0499 << QStringLiteral("*");
        QTest::newRow("0.05") << 0.05 << QString();
        QTest::newRow("0.5") << 0.5 << QString();
    }
    void starsFollowTheThresholds()
    {
        QFETCH(double, p);
        QFETCH(QString, stars);
        QCOMPARE(QString::fromStdString(report::significanceStars(p)), stars);
    }

    void marksLegendNamesBothThresholds()
    {
        QCOMPARE(report::significanceMarksLegend(), std::string("* p < 0.05, ** p < 0.01"));
    }

    void fewFoldsExplainWhyTheTTestStandsIn()
    {
        const std::string legend = report::significanceLegend(resultWith(5, 1, "paired_t", true));
        QCOMPARE(legend, std::string("p: two-sided paired t-test of the rmse per fold against the best model; "
                                     "* p < 0.05, ** p < 0.01. With 5 folds the Wilcoxon signed-rank test cannot "
                                     "reach p < 0.05 (its smallest p is 2/2^5), so the t-test is reported; the JSON "
                                     "report holds both."));
    }

    void manyFoldsNameTheWilcoxonTest()
    {
        const std::string legend = report::significanceLegend(resultWith(10, 1, "wilcoxon", true));
        QCOMPARE(legend, std::string("p: two-sided Wilcoxon signed-rank test of the rmse per fold against the best "
                                     "model; * p < 0.05, ** p < 0.01."));
    }

    void repetitionsNameTheCorrectedTest()
    {
        const std::string legend = report::significanceLegend(resultWith(10, 2, "corrected_t", true));
        QVERIFY(legend.find("corrected repeated k-fold t-test (Nadeau and Bengio)") != std::string::npos);
        QVERIFY(legend.find("the repetitions share") != std::string::npos);
    }

    void noReportedTestNoLegend()
    {
        QVERIFY(report::significanceLegend(resultWith(4, 1, "paired_t", false)).empty());
        QVERIFY(report::significanceLegend(evaluation::ExperimentResult{}).empty());
    }

    void ruleNamesEveryTestAndTheMinimum()
    {
        const std::string rule = report::significanceTestRule();
        for (const char *part : {"paired t-test over fewer than 6 folds", "Wilcoxon signed-rank test from 6",
                                 "corrected repeated k-fold t-test", "none below 5 folds"})
            QVERIFY2(rule.find(part) != std::string::npos, part);
    }
};

QTEST_GUILESS_MAIN(TestSignificanceLegend)
#include "test_SignificanceLegend.moc"
