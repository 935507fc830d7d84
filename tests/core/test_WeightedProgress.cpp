// SPDX-License-Identifier: GPL-3.0-or-later
// The experiment's overall progress, weighted by each fit's expected time: the
// shares are checked against sums worked out by hand, and a real experiment's
// reports are checked to rise, end at one, and come at visible steps only.
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "evaluation/Experiment.h"
#include "evaluation/WeightedProgress.h"
#include "models/RegressorRegistry.h"

#include <QTest>

#include <vector>

using gpumem::evaluation::WeightedProgress;

namespace {

class ShareLog : public gpumem::evaluation::ExperimentObserver
{
  public:
    void progressChanged(double share) override { shares.push_back(share); }
    std::vector<double> shares;
};

// Finishes each of the folds of model in seconds.
void finishEveryFold(WeightedProgress &progress, std::size_t model, int folds, double seconds)
{
    for (int fold = 0; fold < folds; ++fold)
        progress.fitFinished(model, fold, seconds);
}

} // namespace

class TestWeightedProgress : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void countsFitsEquallyBeforeAnyTimeIsKnown()
    {
        WeightedProgress progress(2, 5);
        QCOMPARE(progress.share(), 0.0);
        progress.fitFinished(1, 0, 2.0);
        // The finished model's 2 s is also the typical time of the unknown one: 1 of 10 equal fits.
        QCOMPARE(progress.share(), 0.1);
    }

    void aSlowModelWeighsAsMuchAsItsTime()
    {
        // Model 0 (a network) needs 100 s per fold, model 1 (a tree) 1 s.
        WeightedProgress progress(2, 5);
        finishEveryFold(progress, 1, 5, 1.0);
        progress.fitAdvanced(0, 0, 0.5, 50.0);
        // Expected: 5 × 100 s + 5 × 1 s = 505 s; done: 50 s + 5 s = 55 s. Counting fits would say 55%.
        QCOMPARE(progress.share(), 55.0 / 505.0);
        progress.fitFinished(0, 0, 100.0);
        QCOMPARE(progress.share(), 105.0 / 505.0);
    }

    void aRunningFitGivesNoEstimateUntilItHasMoved()
    {
        WeightedProgress progress(2, 1);
        progress.fitFinished(1, 0, 4.0);
        // 1% done in 3 s says little; the unknown model is taken as typical (4 s).
        progress.fitAdvanced(0, 0, 0.01, 3.0);
        QCOMPARE(progress.share(), (4.0 + 0.01 * 4.0) / 8.0);
    }

    void neverGoesBack()
    {
        WeightedProgress progress(2, 1);
        progress.fitFinished(1, 0, 1.0);
        const double before = progress.share(); // 0.5: two fits of one unit each
        // The running fit now looks far slower than thought: the true share drops, the reported one does not.
        progress.fitAdvanced(0, 0, 0.1, 90.0);
        QCOMPARE(progress.share(), before);
        progress.fitFinished(0, 0, 900.0);
        QCOMPARE(progress.share(), 1.0);
    }

    void anAbandonedModelLeavesNoWork()
    {
        WeightedProgress progress(2, 3);
        finishEveryFold(progress, 0, 3, 2.0);
        progress.modelAbandoned(1);
        QCOMPARE(progress.share(), 1.0);
    }

    void experimentReportsRiseInVisibleStepsToOne()
    {
        std::string text = "a,b,y\n";
        for (int row = 0; row < 60; ++row)
            text += std::to_string(row % 7) + ',' + std::to_string((row * 3) % 11) + ',' +
                    std::to_string(3 * (row % 7) + 100) + '\n';
        const gpumem::data::Table table = gpumem::data::loadTableFromText(text, "linear.csv");
        gpumem::data::RoleRequest request;
        request.target = "y";
        std::vector<std::string> warnings;
        const auto dataset = gpumem::data::Dataset::fromTable(table, gpumem::data::assignRoles(table, request),
                                                              gpumem::data::BadCellPolicy::Fail, warnings);
        gpumem::evaluation::ExperimentSettings settings;
        for (const char *name : {"decision_tree", "random_forest", "ridge"})
            settings.models.push_back({name, gpumem::models::regressorHyperparameters(name)});
        settings.folds = 3;
        ShareLog log;
        gpumem::evaluation::runExperiment(dataset, settings, &log);
        QVERIFY(!log.shares.empty());
        QCOMPARE(log.shares.back(), 1.0);
        for (std::size_t i = 1; i < log.shares.size(); ++i)
            QVERIFY2(log.shares[i] - log.shares[i - 1] >= 0.001 || log.shares[i] == 1.0,
                     "reports come only when the share moves by a visible step");
        // The forest reports each of its 100 trees in each fold: far more events than reports.
        QVERIFY(log.shares.size() <= 1001);
    }
};

QTEST_GUILESS_MAIN(TestWeightedProgress)
#include "test_WeightedProgress.moc"
