// SPDX-License-Identifier: GPL-3.0-or-later
#include "SmallNetwork.h"

#include "calibration/CommonCapacities.h"
#include "data/ColumnRoles.h"
#include "data/SeededRandom.h"
#include "data/TableLoader.h"
#include "evaluation/Metrics.h"
#include "evaluation/Splits.h"
#include "io/InputError.h"
#include "models/RegressorRegistry.h"
#include "workflows/TrainWorkflow.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace gpumem;

namespace {

// 120 jobs whose memory grows with their size, from 1.5 GiB to 150 GiB, so that
// every common GPU capacity holds a different share of them.
data::Dataset syntheticJobs()
{
    data::SeededRandom random(11);
    std::string csv = "size,width,memory\n";
    for (int row = 0; row < 120; ++row) {
        const double size = 1.0 + 99.0 * random.unit();
        const double width = random.unit() * 10.0;
        csv += std::to_string(size) + ',' + std::to_string(width) + ',' +
               std::to_string(1536.0 * size + 40.0 * width + 200.0 * random.unit()) + '\n';
    }
    const data::Table table = data::loadTableFromText(csv, "jobs.csv");
    data::RoleRequest request;
    request.target = "memory";
    std::vector<std::string> warnings;
    return data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
}

std::vector<Eigen::Index> allRowsBut(Eigen::Index rows, const std::vector<Eigen::Index> &left)
{
    std::vector<Eigen::Index> kept;
    for (Eigen::Index row = 0; row < rows; ++row)
        if (std::find(left.begin(), left.end(), row) == left.end())
            kept.push_back(row);
    return kept;
}

// The share of rows whose bound fits capacity MiB, counted one by one.
double countedShareWithin(const Eigen::VectorXd &bounds, const std::vector<Eigen::Index> &rows, double capacity)
{
    const auto fits =
        std::count_if(rows.begin(), rows.end(), [&](Eigen::Index row) { return bounds[row] <= capacity; });
    return static_cast<double>(fits) / static_cast<double>(rows.size());
}

} // namespace

class TestTrainWorkflow : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void aTreeHoldsOutRowsPredictsAndRecords()
    {
        const data::Dataset dataset = syntheticJobs();
        workflows::TrainConfiguration configuration;
        configuration.name = "tree";
        configuration.model = "decision_tree";
        configuration.hyperparameters = models::regressorHyperparameters("decision_tree");
        configuration.holdOutFraction = 0.25;
        configuration.holdOutSeed = 9;
        const workflows::TrainResult trained = workflows::train(dataset, configuration);
        QVERIFY(trained.succeeded());

        const evaluation::Split expected = evaluation::holdOutSplit(120, 0.25, 9);
        QCOMPARE(trained.split.test, expected.test);
        QCOMPARE(trained.split.test.size(), std::size_t{30});
        QCOMPARE(trained.fitRows, allRowsBut(120, expected.test));

        // The kept model's own predictions of every row, and the record's metrics on them.
        const Eigen::VectorXd predicted = trained.model->predict(dataset);
        QVERIFY(predicted.isApprox(trained.fit.predicted));
        const Eigen::VectorXd &actual = dataset.target();
        double squares = 0.0;
        for (Eigen::Index row : expected.test)
            squares += (predicted[row] - actual[row]) * (predicted[row] - actual[row]);
        QVERIFY(trained.record.validationMetrics.has_value());
        QCOMPARE(trained.record.validationMetrics->rmse, std::sqrt(squares / 30.0));
        QCOMPARE(trained.record.name, std::string("tree"));
        QCOMPARE(trained.record.model, std::string("decision_tree"));
        QCOMPARE(trained.record.trainRows, std::size_t{90});
        QCOMPARE(trained.record.validationRows, std::size_t{30});
        // Without a calibration there is no bound.
        QCOMPARE(trained.bounds.size(), Eigen::Index{0});
        QVERIFY(!trained.boundReport.has_value());
    }

    void aCalibratedTreeReportsItsBoundOnTheHeldOutRows()
    {
        const data::Dataset dataset = syntheticJobs();
        workflows::TrainConfiguration configuration;
        configuration.model = "decision_tree";
        configuration.hyperparameters = models::regressorHyperparameters("decision_tree");
        configuration.holdOutFraction = 0.25;
        configuration.calibration.emplace();
        configuration.calibration->coverage = 0.9;
        configuration.calibration->score = calibration::Score::Relative;
        const workflows::TrainResult trained = workflows::train(dataset, configuration);
        QVERIFY(trained.succeeded());
        QVERIFY(trained.fit.calibration.has_value());
        QVERIFY(trained.boundReport.has_value());
        const calibration::BoundReport &report = *trained.boundReport;
        const std::vector<Eigen::Index> &test = trained.split.test;
        QCOMPARE(trained.bounds.size(), Eigen::Index{120});

        // A relative bound is the prediction times (1 + margin): never below it.
        const double margin = trained.fit.calibration->margin(0.9);
        QCOMPARE(report.margin, margin);
        for (Eigen::Index row = 0; row < 120; ++row)
            QVERIFY(std::abs(trained.bounds[row] - trained.fit.predicted[row] * (1.0 + margin)) <=
                    1e-9 * trained.bounds[row]);

        // What the report says of the test rows, counted again from the returned bounds.
        const Eigen::VectorXd &actual = dataset.target();
        const auto under = std::count_if(test.begin(), test.end(),
                                         [&](Eigen::Index row) { return actual[row] > trained.bounds[row]; });
        QCOMPARE(report.bound.rows, test.size());
        QCOMPARE(report.bound.underPredictionRate, static_cast<double>(under) / static_cast<double>(test.size()));
        const auto underTenPercent = std::count_if(
            test.begin(), test.end(), [&](Eigen::Index row) { return actual[row] > trained.fit.predicted[row] * 1.1; });
        QCOMPARE(report.tenPercent.underPredictionRate,
                 static_cast<double>(underTenPercent) / static_cast<double>(test.size()));
        QCOMPARE(report.shareWithinCapacity.size(), calibration::kCommonCapacitiesGiB.size());
        double previous = 0.0;
        bool someButNotAll = false;
        for (std::size_t index = 0; index < report.shareWithinCapacity.size(); ++index) {
            const auto [capacity, share] = report.shareWithinCapacity[index];
            QCOMPARE(capacity, calibration::kCommonCapacitiesGiB[index] * 1024.0);
            QCOMPARE(share, countedShareWithin(trained.bounds, test, capacity));
            QVERIFY(share >= previous); // a larger card holds every job a smaller one does
            previous = share;
            someButNotAll = someButNotAll || (share > 0.0 && share < 1.0);
        }
        QVERIFY(someButNotAll);
        QVERIFY(!report.tradeOff.empty());
    }

    void aTinyNetworkTrainsTwoEpochsAndContinues()
    {
        const data::Dataset dataset = syntheticJobs();
        workflows::TrainConfiguration configuration;
        configuration.name = "network";
        configuration.hyperparameters = gpumem::tests::smallNetworkHyperparameters(2);
        configuration.holdOutFraction = 0.2;
        const workflows::TrainResult trained = workflows::train(dataset, configuration);
        QVERIFY(trained.succeeded());
        QCOMPARE(trained.record.model, std::string(models::kNetworkModelName));
        QCOMPARE(trained.record.epochs.size(), std::size_t{2});
        QCOMPARE(trained.record.validationRows, std::size_t{24});
        QCOMPARE(trained.split.test, evaluation::holdOutSplit(120, 0.2, configuration.compute.seed).test);
        QVERIFY(trained.model->predict(dataset).isApprox(trained.fit.predicted));
        QCOMPARE(trained.device, std::string("cpu"));

        // Saved with its optimizer, the network continues from its third epoch.
        QTemporaryDir folder;
        const std::string saved = folder.filePath("network").toStdString();
        trained.model->save(saved);
        workflows::TrainConfiguration resumed;
        resumed.compute.seed = 7; // replaced by the saved run's seed
        QCOMPARE(workflows::resumeTraining(resumed, saved, 3), 2);
        QCOMPARE(resumed.compute.seed, configuration.compute.seed);
        QVERIFY(resumed.continuing != nullptr);
        resumed.holdOutFraction = 0.2;
        const workflows::TrainResult continued = workflows::train(dataset, resumed);
        QVERIFY(continued.succeeded());
        QCOMPARE(continued.split.test, trained.split.test);
        QCOMPARE(continued.record.epochs.back().epoch, 3);

        // Core names the parameters at fault; the command line shows them as its flags.
        workflows::TrainConfiguration again;
        try {
            workflows::resumeTraining(again, saved, 2);
            QFAIL("continued a network to the epochs it had trained");
        } catch (const io::InputError &error) {
            QCOMPARE(error.message(), std::string("has trained 2 epochs; give epochs above 2 to train further"));
        }
        try {
            workflows::resumeTraining(again, saved, 4, 5);
            QFAIL("continued a network with another seed");
        } catch (const io::InputError &error) {
            QCOMPARE(error.message(), "seed 5 differs from the seed " + std::to_string(configuration.compute.seed) +
                                          " that " + saved + " was trained with");
        }
    }
};

QTEST_GUILESS_MAIN(TestTrainWorkflow)
#include "test_TrainWorkflow.moc"
