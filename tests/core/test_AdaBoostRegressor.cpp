// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"

#include "io/InputError.h"
#include "models/AdaBoostR2.h"
#include "models/AdaBoostRegressor.h"

#include <QTest>

#include <cmath>

using gpumem::models::AdaBoostLoss, gpumem::models::adaBoostRound, gpumem::models::weightedMedian;

namespace {

using gpumem::tests::vectorOf;

bool near(double left, double right)
{
    return std::abs(left - right) < 1e-12;
}

} // namespace

class TestAdaBoostRegressor : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void linearLossRound()
    {
        // Errors 0 1 2 4, weights 1/4 each. Divided by the largest error (4) the
        // losses are 0, 1/4, 1/2, 1; the weighted mean loss is (0 + 1/4 + 1/2 + 1)/4
        // = 7/16. beta = (7/16) / (9/16) = 7/9, the tree's weight ln(9/7) = 0.2513.
        // Each row's weight becomes 1/4 · (7/9)^(1 − loss): 0.1944, 0.2071, 0.2205, 0.25.
        Eigen::VectorXd weights = Eigen::VectorXd::Constant(4, 0.25);
        const auto round = adaBoostRound(vectorOf({0, 1, 2, 4}), weights, AdaBoostLoss::Linear, 1.0, true);
        QVERIFY(!round.perfect && !round.tooWeak);
        QVERIFY(near(round.error, 7.0 / 16.0));
        QVERIFY(near(round.estimatorWeight, std::log(9.0 / 7.0)));
        QVERIFY(near(weights(0), 0.25 * 7.0 / 9.0));
        QVERIFY(near(weights(1), 0.25 * std::pow(7.0 / 9.0, 0.75)));
        QVERIFY(near(weights(2), 0.25 * std::sqrt(7.0 / 9.0)));
        QVERIFY(near(weights(3), 0.25));
        QVERIFY(std::abs(weights(1) - 0.20705) < 1e-5);
    }

    void squareAndExponentialLosses()
    {
        // Square: losses 0, 1/16, 1/4, 1 → mean 21/64; beta = 21/43.
        Eigen::VectorXd weights = Eigen::VectorXd::Constant(4, 0.25);
        auto round = adaBoostRound(vectorOf({0, 1, 2, 4}), weights, AdaBoostLoss::Square, 1.0, true);
        QVERIFY(near(round.error, 21.0 / 64.0));
        QVERIFY(near(round.estimatorWeight, std::log(43.0 / 21.0)));
        QVERIFY(near(weights(1), 0.25 * std::pow(21.0 / 43.0, 15.0 / 16.0)));
        // Exponential on errors 0 and 2 (largest 2): losses 0 and 1 − e^−1 = 0.632;
        // with weights 0.9 and 0.1 the mean loss is 0.0632, below one half.
        weights = vectorOf({0.9, 0.1});
        round = adaBoostRound(vectorOf({0, 2}), weights, AdaBoostLoss::Exponential, 1.0, false);
        QVERIFY(near(round.error, 0.1 * (1.0 - std::exp(-1.0))));
        QCOMPARE(weights, vectorOf({0.9, 0.1})); // the last round leaves the weights alone
    }

    void learningRateScalesWeightAndUpdate()
    {
        Eigen::VectorXd weights = Eigen::VectorXd::Constant(4, 0.25);
        const auto round = adaBoostRound(vectorOf({0, 1, 2, 4}), weights, AdaBoostLoss::Linear, 0.5, true);
        QVERIFY(near(round.estimatorWeight, 0.5 * std::log(9.0 / 7.0)));
        QVERIFY(near(weights(0), 0.25 * std::pow(7.0 / 9.0, 0.5)));
    }

    void weightlessRowsTakeNoPart()
    {
        // The row of weight 0 has the largest error but is not the largest that
        // counts: losses are 0, 1/2, 1 for the others, mean 1/2: no better than chance.
        Eigen::VectorXd weights = vectorOf({1.0 / 3, 1.0 / 3, 1.0 / 3, 0.0});
        const auto round = adaBoostRound(vectorOf({0, 1, 2, 100}), weights, AdaBoostLoss::Linear, 1.0, true);
        QVERIFY(round.tooWeak);
        Eigen::VectorXd perfectWeights = Eigen::VectorXd::Constant(3, 1.0 / 3);
        const auto perfect = adaBoostRound(vectorOf({0, 0, 0}), perfectWeights, AdaBoostLoss::Linear, 1.0, true);
        QVERIFY(perfect.perfect);
        QCOMPARE(perfect.estimatorWeight, 1.0);
    }

    void weightedMedianIsTheFirstValueReachingHalf()
    {
        // Sorted: 1 (0.5), 2 (0.3), 3 (0.2); total 1, the weight reaches 0.5 at 1.
        QCOMPARE(weightedMedian({3, 1, 2}, {0.2, 0.5, 0.3}), 1.0);
        // Sorted: 1 (0.3), 2 (0.3), 3 (0.4): cumulative 0.3, 0.6 → 2.
        QCOMPARE(weightedMedian({3, 1, 2}, {0.4, 0.3, 0.3}), 2.0);
        // Sorted: 10 (1), 20 (1), 30 (2): half of 4 is 2, reached at 20.
        QCOMPARE(weightedMedian({30, 10, 20}, {2, 1, 1}), 20.0);
        // No weight at all: the smallest value.
        QCOMPARE(weightedMedian({5, 4}, {0, 0}), 4.0);
    }

    void resamplingFollowsTheWeights()
    {
        gpumem::data::SeededRandom random(3);
        const auto drawn = gpumem::models::weightedResample(vectorOf({0.0, 0.75, 0.0, 0.25}), random);
        QCOMPARE(drawn.size(), std::size_t{4});
        int second = 0;
        for (int repeat = 0; repeat < 1000; ++repeat) {
            for (const Eigen::Index row : gpumem::models::weightedResample(vectorOf({0.0, 0.75, 0.0, 0.25}), random)) {
                QVERIFY(row == 1 || row == 3);
                second += row == 1 ? 1 : 0;
            }
        }
        QVERIFY(second > 2800 && second < 3200); // 3000 expected, standard deviation 27
    }

    void boostsTreesOfDepthThree()
    {
        const auto hyperparameters = gpumem::models::adaBoostHyperparameters();
        QCOMPARE(hyperparameters.integer("n_estimators"), std::int64_t{50});
        QCOMPARE(hyperparameters.real("learning_rate"), 1.0);
        QCOMPARE(hyperparameters.choice("loss"), std::string("linear"));
        QCOMPARE(hyperparameters.integer("max_depth"), std::int64_t{3});
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(400, 2.0));
        gpumem::models::AdaBoostRegressor model(hyperparameters, {});
        const auto result = model.fit(dataset, gpumem::tests::firstRows(400));
        QVERIFY(!model.trees().empty() && model.trees().size() <= 50);
        QCOMPARE(result.epochs.size(), model.trees().size());
        for (const auto &tree : model.trees())
            QVERIFY(tree.depth() <= 3);
        const Eigen::VectorXd predicted = model.predict(dataset);
        const double spread = std::sqrt((dataset.target().array() - dataset.target().mean()).square().mean());
        QVERIFY(gpumem::tests::rootMeanSquare(predicted, dataset.target()) < 0.5 * spread);
    }

    void stopsAfterAPerfectTree()
    {
        // memory depends on one column with two values: the first tree fits it exactly.
        std::string csv = "a,memory\n";
        for (int row = 0; row < 20; ++row)
            csv += std::to_string(row % 2) + ',' + (row % 2 ? "2000" : "1000") + '\n';
        const auto dataset = gpumem::tests::baselineDataset(csv);
        gpumem::models::AdaBoostRegressor model(gpumem::models::adaBoostHyperparameters(), {});
        const auto result = model.fit(dataset, gpumem::tests::firstRows(20));
        QCOMPARE(result.stopReason, gpumem::training::StopReason::EarlyStopped);
        QCOMPARE(model.trees().size(), std::size_t{1});
        QCOMPARE(model.predict(dataset), dataset.target());
    }

    void cancelLeavesTheModelUnfitted()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(50, 2.0));
        gpumem::models::AdaBoostRegressor model(gpumem::models::adaBoostHyperparameters(), {});
        gpumem::runtime::OperationControl control;
        control.cancel();
        const auto result = model.fit(dataset, gpumem::tests::firstRows(50), nullptr, &control);
        QCOMPARE(result.stopReason, gpumem::training::StopReason::Cancelled);
        QVERIFY(!model.isFitted());
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, model.predict(dataset));
    }
};

QTEST_APPLESS_MAIN(TestAdaBoostRegressor)
#include "test_AdaBoostRegressor.moc"
