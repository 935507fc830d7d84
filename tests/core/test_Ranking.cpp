// SPDX-License-Identifier: GPL-3.0-or-later
// The answers every view of a comparison shares: which models are best on a metric
// at the precision shown, and each model's worst under-predictions.
#include "DataTables.h"

#include "evaluation/Experiment.h"
#include "evaluation/Metrics.h"
#include "evaluation/Ranking.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace gpumem;
using evaluation::UnderPrediction;
using Means = std::vector<double>;
using Flags = std::vector<bool>;

Q_DECLARE_METATYPE(Means)
Q_DECLARE_METATYPE(Flags)

namespace {

constexpr double missing = std::numeric_limits<double>::quiet_NaN();

// A comparison of one model per value, each with that mean of metric.
evaluation::ExperimentResult modelsWithMeans(const evaluation::MetricDescription &metric,
                                             const std::vector<double> &values)
{
    evaluation::ExperimentResult result;
    for (const double value : values) {
        evaluation::ModelResult model;
        model.mean.*metric.member = value;
        result.models.push_back(model);
    }
    return result;
}

// Which of the models the ranking calls best, one flag each.
std::vector<bool> bestFlags(const std::string &key, const std::vector<double> &values)
{
    const evaluation::MetricDescription &metric = evaluation::metricDescription(key);
    const evaluation::ExperimentResult result = modelsWithMeans(metric, values);
    std::vector<bool> flags;
    for (const auto &model : result.models)
        flags.push_back(evaluation::isBestModel(result, model, metric));
    return flags;
}

// A comparison of five jobs of 100 to 500 MiB and the out-of-fold predictions of each model.
evaluation::ExperimentResult predictedJobs(const std::vector<std::vector<double>> &predictions)
{
    evaluation::ExperimentResult result;
    result.actual = Eigen::Vector<double, 5>(100.0, 200.0, 300.0, 400.0, 500.0);
    for (const auto &values : predictions) {
        evaluation::ModelResult model;
        model.predictions = Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
        result.models.push_back(model);
    }
    return result;
}

} // namespace

class TestRanking : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void crownsTheBestAtThePrecisionShown_data()
    {
        addColumns<QString, Means, Flags>("metric", "means", "best");
        addRow("lowest RMSE", "rmse", Means{12.5, 10.0, 11.0}, Flags{false, true, false});
        // 18.951 and 18.9549 both show as "18.95": a tie people cannot tell apart; 18.956 shows as "18.96".
        addRow("tie at four digits", "rmse", Means{18.951, 18.9549, 18.956}, Flags{true, true, false});
        addRow("highest R²", "r2", Means{0.99811, 0.99812, -3.0}, Flags{false, true, false});
        // R² shows five decimals: 0.998121 and 0.998124 are both "0.99812".
        addRow("R² tie", "r2", Means{0.998121, 0.998124}, Flags{true, true});
        addRow("highest share within 10%", "within_10pct", Means{0.5, 0.75}, Flags{false, true});
        // A model without a figure is never best and does not stop another from being best.
        addRow("NaN skipped", "mae", Means{missing, 7.0, 9.0}, Flags{false, true, false});
        addRow("all NaN but one", "mae", Means{missing, 42.0, missing}, Flags{false, true, false});
        addRow("all NaN", "mae", Means{missing, missing}, Flags{false, false});
        // The risk metrics crown nobody: a lower under-prediction rate alone can mean memory wasted.
        addRow("under-prediction rate", "under_rate", Means{0.1, 0.3}, Flags{false, false});
        addRow("over-allocation", "over_alloc", Means{5.0, 50.0}, Flags{false, false});
    }
    void crownsTheBestAtThePrecisionShown()
    {
        QFETCH(QString, metric);
        QFETCH(Means, means);
        QFETCH(Flags, best);
        QCOMPARE(bestFlags(metric.toStdString(), means), best);
    }

    void listsEachModelsWorstUnderPredictions()
    {
        // Model 0 falls 10 MiB short on job 0 and 50 MiB on jobs 2 and 3 (the lower row
        // first), meets job 1 exactly and has no prediction for job 4. Model 1 was
        // never scored on these rows, model 2 is above every job, model 3 far below.
        const double infinity = std::numeric_limits<double>::infinity();
        const evaluation::ExperimentResult result = predictedJobs({{90.0, 200.0, 250.0, 350.0, missing},
                                                                   {1.0, 2.0},
                                                                   {101.0, 250.0, 300.5, 1e6, 501.0},
                                                                   {-infinity, 0.0, 300.0, 400.0, 499.0}});
        const std::vector<UnderPrediction> worst = evaluation::worstUnderPredictions(result, 2);
        QCOMPARE(worst.size(), std::size_t{4});
        const std::vector<std::pair<std::size_t, Eigen::Index>> expected{{0, 2}, {0, 3}, {3, 1}, {3, 4}};
        for (std::size_t index = 0; index < expected.size(); ++index) {
            QCOMPARE(worst[index].model, expected[index].first);
            QCOMPARE(worst[index].row, expected[index].second);
        }
        QCOMPARE(worst[0].actual, 300.0);
        QCOMPARE(worst[0].predicted, 250.0);
        QCOMPARE(worst[0].shortfall(), 50.0);
        QCOMPARE(worst[1].shortfall(), 50.0);
        QCOMPARE(worst[2].shortfall(), 200.0);
        QCOMPARE(worst[3].shortfall(), 1.0);
    }

    void keepsAtMostPerModel()
    {
        const evaluation::ExperimentResult result = predictedJobs({{90.0, 200.0, 250.0, 350.0, missing}});
        QVERIFY(evaluation::worstUnderPredictions(result, 0).empty());
        const std::vector<UnderPrediction> all = evaluation::worstUnderPredictions(result, 10);
        QCOMPARE(all.size(), std::size_t{3});
        QCOMPARE(all[0].row, Eigen::Index{2});
        QCOMPARE(all[1].row, Eigen::Index{3});
        QCOMPARE(all[2].row, Eigen::Index{0});
        QCOMPARE(all[2].shortfall(), 10.0);
        QVERIFY(evaluation::worstUnderPredictions(evaluation::ExperimentResult{}, 5).empty());
    }
};

QTEST_GUILESS_MAIN(TestRanking)
#include "test_Ranking.moc"
