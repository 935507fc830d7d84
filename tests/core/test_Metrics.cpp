// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "evaluation/Metrics.h"

#include <QList>
#include <QObject>
#include <QSet>
#include <QString>
#include <QTest>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

// The slots share their names with the functions under test, so those are
// called fully qualified below.
using gpumem::evaluation::RegressionMetrics;

namespace {

constexpr double kNotANumber = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();

Eigen::VectorXd toVector(const QList<double> &values)
{
    Eigen::VectorXd vector(values.size());
    for (qsizetype index = 0; index < values.size(); ++index) {
        vector[index] = values[index];
    }
    return vector;
}

// Runs call and returns the message of the std::invalid_argument it throws, or
// nothing when it returns normally; other exceptions reach Qt Test as failures.
template <typename Callable> std::optional<std::string> invalidArgumentMessage(Callable call)
{
    try {
        call();
    } catch (const std::invalid_argument &error) {
        return std::string(error.what());
    }
    return std::nullopt;
}

} // namespace

class TestMetrics : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void computeMetrics_data();
    void computeMetrics();
    void r2WhenActualIsConstant_data();
    void r2WhenActualIsConstant();
    void mapeSkipsZeroActuals();
    void mapeIsNotANumberWithoutNonZeroActuals();
    void medianRelativeErrorAndShareWithinTenPercent();
    void underRateAndOverAllocation_data();
    void underRateAndOverAllocation();
    void notANumberMakesEveryMetricNotANumber();
    void percentileErrorMatchesNumpy();
    void descriptionsAreOneRegistry();
    void acceptsVectorViews();
    void computeMetricsRejectsBadSizes_data();
    void computeMetricsRejectsBadSizes();
    void binAccuracy_data();
    void binAccuracy();
    void binAccuracyRejectsBadEdges_data();
    void binAccuracyRejectsBadEdges();
    void binAccuracyRejectsBadSizes();
    void uniformBinEdges_data();
    void uniformBinEdges();
    void uniformBinEdgesRejectsBadArguments_data();
    void uniformBinEdgesRejectsBadArguments();
};

void TestMetrics::computeMetrics_data()
{
    addColumns<QList<double>, QList<double>, double, double, double, double, double, double, double, double>(
        "actual", "predicted", "mse", "rmse", "mae", "r2", "mape", "maxError", "underRate", "overAllocation");

    // actual {100,200,300,400}, predicted {110,190,330,400}
    // errors actual-predicted: {-10, 10, -30, 0}
    // mse = (100+100+900+0)/4 = 275, rmse = sqrt(275), mae = (10+10+30+0)/4 = 12.5
    // mean actual 250, SStot = 150²+50²+50²+150² = 50000, r2 = 1 - 1100/50000 = 0.978
    // mape = (10/100 + 10/200 + 30/300 + 0/400)/4 · 100 = 0.25/4 · 100 = 6.25 %
    // maxError 30; under: only 190 < 200, so 1/4; over: (10+0+30+0)/4 = 10 MiB
    addRow("worked example", QList<double>{100, 200, 300, 400}, QList<double>{110, 190, 330, 400}, 275.0,
           std::sqrt(275.0), 12.5, 0.978, 6.25, 30.0, 0.25, 10.0);

    // Every error is 0, so everything is 0 except r2 = 1 - 0/SStot = 1.
    addRow("perfect prediction", QList<double>{1024, 2048, 8192}, QList<double>{1024, 2048, 8192}, 0.0, 0.0, 0.0, 1.0,
           0.0, 0.0, 0.0, 0.0);

    // actual {1000,2000}, predicted {900,1800}: errors {100, 200}
    // mse = (10000+40000)/2 = 25000, rmse = sqrt(25000), mae = 150
    // mean 1500, SStot = 500²+500² = 500000, r2 = 1 - 50000/500000 = 0.9
    // mape = (100/1000 + 200/2000)/2 · 100 = 10 %; maxError 200
    // both rows under-predicted: underRate 1, overAllocation 0
    addRow("under-prediction only", QList<double>{1000, 2000}, QList<double>{900, 1800}, 25000.0, std::sqrt(25000.0),
           150.0, 0.9, 10.0, 200.0, 1.0, 0.0);

    // actual {512,1024,2048}, predicted 1024 everywhere: errors {-512, 0, 1024}
    // SSres = 262144 + 0 + 1048576 = 1310720, mse = 1310720/3, mae = 1536/3 = 512
    // mean 3584/3; SStot = Σy² - 3·mean² = 5505024 - 12845056/3 = 3670016/3
    // r2 = 1 - 1310720·3/3670016 = 1 - 3932160/3670016 = 1 - 15/14 = -1/14 (worse than the mean)
    // mape = (512/512 + 0 + 1024/2048)/3 · 100 = 1.5/3 · 100 = 50 %; maxError 1024
    // under: 1024 < 2048 only, 1/3; over: (512 + 0 + 0)/3
    addRow("negative r2", QList<double>{512, 1024, 2048}, QList<double>{1024, 1024, 1024}, 1310720.0 / 3.0,
           std::sqrt(1310720.0 / 3.0), 512.0, -1.0 / 14.0, 50.0, 1024.0, 1.0 / 3.0, 512.0 / 3.0);
}

void TestMetrics::computeMetrics()
{
    QFETCH(QList<double>, actual);
    QFETCH(QList<double>, predicted);
    QFETCH(double, mse);
    QFETCH(double, rmse);
    QFETCH(double, mae);
    QFETCH(double, r2);
    QFETCH(double, mape);
    QFETCH(double, maxError);
    QFETCH(double, underRate);
    QFETCH(double, overAllocation);

    const RegressionMetrics metrics = gpumem::evaluation::computeMetrics(toVector(actual), toVector(predicted));
    QCOMPARE(metrics.mse, mse);
    QCOMPARE(metrics.rmse, rmse);
    QCOMPARE(metrics.mae, mae);
    QCOMPARE(metrics.r2, r2);
    QCOMPARE(metrics.mape, mape);
    QCOMPARE(metrics.maxError, maxError);
    QCOMPARE(metrics.underRate, underRate);
    QCOMPARE(metrics.overAllocation, overAllocation);
}

void TestMetrics::r2WhenActualIsConstant_data()
{
    addColumns<QList<double>, QList<double>, double>("actual", "predicted", "r2");

    // SStot = 0 makes 1 - SSres/SStot undefined; like scikit-learn, a perfect
    // prediction scores 1 and anything else 0.
    addRow("perfect", QList<double>{5, 5, 5}, QList<double>{5, 5, 5}, 1.0);
    addRow("imperfect", QList<double>{5, 5, 5}, QList<double>{4, 5, 6}, 0.0);
    addRow("single row, perfect", QList<double>{300}, QList<double>{300}, 1.0);
    addRow("single row, off", QList<double>{300}, QList<double>{250}, 0.0);
    // The mean of three 0.1 is not exactly 0.1 in binary, so SStot comes out
    // tiny but nonzero; without care r2 would be a huge negative number.
    addRow("constant 0.1, off", QList<double>{0.1, 0.1, 0.1}, QList<double>{0.2, 0.1, 0.1}, 0.0);
}

void TestMetrics::r2WhenActualIsConstant()
{
    QFETCH(QList<double>, actual);
    QFETCH(QList<double>, predicted);
    QFETCH(double, r2);

    QCOMPARE(gpumem::evaluation::computeMetrics(toVector(actual), toVector(predicted)).r2, r2);
}

void TestMetrics::mapeSkipsZeroActuals()
{
    // actual {0, 100, 200}, predicted {50, 110, 180}: the 0 row has no relative
    // error, so mape = (10/100 + 20/200)/2 · 100 = 10 %, while mae still counts
    // it: (50 + 10 + 20)/3 = 80/3.
    const RegressionMetrics metrics =
        gpumem::evaluation::computeMetrics(toVector({0, 100, 200}), toVector({50, 110, 180}));
    QCOMPARE(metrics.mape, 10.0);
    QCOMPARE(metrics.mae, 80.0 / 3.0);
    QCOMPARE(metrics.maxError, 50.0);
}

void TestMetrics::medianRelativeErrorAndShareWithinTenPercent()
{
    // Relative errors of the worked example: 10/100 = 10%, 10/200 = 5%, 30/300 = 10%, 0%.
    // Sorted 0, 5, 10, 10: the median of an even count is (5 + 10)/2 = 7.5%. Within ±10%:
    // all four (10% itself counts).
    const RegressionMetrics even =
        gpumem::evaluation::computeMetrics(toVector({100, 200, 300, 400}), toVector({110, 190, 330, 400}));
    QCOMPARE(even.medianRelativeError, 7.5);
    QCOMPARE(even.withinTenPercent, 1.0);
    // A spread of four orders of magnitude: 1 → 2 (100%), 10 → 10.5 (5%), 1000 → 1200 (20%),
    // 10000 → 10100 (1%), 0 → 3 (no relative error). Median of 1, 5, 20, 100 is 12.5%;
    // within ±10%: 10.5 and 10100, so 2 of the 5 rows (the 0 row is 3 MiB off, not within).
    const RegressionMetrics wide =
        gpumem::evaluation::computeMetrics(toVector({1, 10, 1000, 10000, 0}), toVector({2, 10.5, 1200, 10100, 3}));
    QCOMPARE(wide.medianRelativeError, 12.5);
    QCOMPARE(wide.withinTenPercent, 0.4);
    // An odd count takes the middle value: 5%, 10%, 20% give 10%.
    QCOMPARE(
        gpumem::evaluation::computeMetrics(toVector({100, 100, 100}), toVector({105, 90, 120})).medianRelativeError,
        10.0);
    QVERIFY(std::isnan(gpumem::evaluation::computeMetrics(toVector({0}), toVector({1})).medianRelativeError));
}

void TestMetrics::mapeIsNotANumberWithoutNonZeroActuals()
{
    const RegressionMetrics metrics = gpumem::evaluation::computeMetrics(toVector({0, 0}), toVector({10, -10}));
    QVERIFY(std::isnan(metrics.mape));
    // The other metrics stay defined: errors {-10, 10}.
    QCOMPARE(metrics.mse, 100.0);
    QCOMPARE(metrics.mae, 10.0);
    QCOMPARE(metrics.r2, 0.0);
}

void TestMetrics::underRateAndOverAllocation_data()
{
    addColumns<QList<double>, QList<double>, double, double>("actual", "predicted", "underRate", "overAllocation");

    // Exact predictions are neither under nor over.
    addRow("all exact", QList<double>{100, 100, 100, 100}, QList<double>{100, 100, 100, 100}, 0.0, 0.0);
    // {=, under 10, over 20, =}: under 1/4; over 20/4 = 5 MiB averaged over all four rows.
    addRow("mixed", QList<double>{100, 100, 100, 100}, QList<double>{100, 90, 120, 100}, 0.25, 5.0);
    // Every row over by 256 MiB: nothing under, 256 MiB wasted per job.
    addRow("all over", QList<double>{1024, 2048}, QList<double>{1280, 2304}, 0.0, 256.0);
    // {under 1000, under 1, over 3}: under 2/3, over 3/3 = 1 MiB.
    addRow("mostly under", QList<double>{4000, 4000, 4000}, QList<double>{3000, 3999, 4003}, 2.0 / 3.0, 1.0);
}

void TestMetrics::underRateAndOverAllocation()
{
    QFETCH(QList<double>, actual);
    QFETCH(QList<double>, predicted);
    QFETCH(double, underRate);
    QFETCH(double, overAllocation);

    const RegressionMetrics metrics = gpumem::evaluation::computeMetrics(toVector(actual), toVector(predicted));
    QCOMPARE(metrics.underRate, underRate);
    QCOMPARE(metrics.overAllocation, overAllocation);
}

void TestMetrics::notANumberMakesEveryMetricNotANumber()
{
    const RegressionMetrics metrics =
        gpumem::evaluation::computeMetrics(toVector({100, 200}), toVector({100, kNotANumber}));
    for (const auto &metric : gpumem::evaluation::metricDescriptions())
        QVERIFY2(std::isnan(metrics.*metric.member), metric.key);
}

void TestMetrics::percentileErrorMatchesNumpy()
{
    // numpy.percentile([10, 10, 30, 0], 95) = 27.0: position 0.95·3 = 2.85 between 10 and 30.
    QCOMPARE(
        gpumem::evaluation::computeMetrics(toVector({100, 200, 300, 400}), toVector({110, 190, 330, 400})).p95Error,
        27.0);
    // numpy.percentile(range(1, 101), 95) = 95.05.
    QList<double> actual;
    QList<double> predicted;
    for (int error = 1; error <= 100; ++error) {
        actual << 1000.0;
        predicted << 1000.0 + (error % 2 ? error : -error);
    }
    QCOMPARE(gpumem::evaluation::computeMetrics(toVector(actual), toVector(predicted)).p95Error, 95.05);
}

void TestMetrics::descriptionsAreOneRegistry()
{
    // Every member of RegressionMetrics has exactly one description, keyed uniquely.
    const auto &descriptions = gpumem::evaluation::metricDescriptions();
    QSet<QString> keys;
    for (std::size_t i = 0; i < descriptions.size(); ++i) {
        keys.insert(QString::fromUtf8(descriptions[i].key));
        for (std::size_t j = 0; j < i; ++j)
            QVERIFY2(descriptions[i].member != descriptions[j].member, descriptions[i].key);
    }
    QCOMPARE(static_cast<std::size_t>(keys.size()), descriptions.size());
    QCOMPARE(descriptions.size() * sizeof(double), sizeof(RegressionMetrics));
    const auto &r2 = gpumem::evaluation::metricDescription("r2");
    QCOMPARE(gpumem::evaluation::formatMetric(r2, 0.998123456), std::string("0.99812"));
    QCOMPARE(gpumem::evaluation::formatMetric(gpumem::evaluation::metricDescription("under_rate"), 0.4723),
             std::string("47.2%"));
    QCOMPARE(gpumem::evaluation::formatMetric(gpumem::evaluation::metricDescription("rmse"), 18.9512),
             std::string("18.95"));
    QCOMPARE(gpumem::evaluation::formatMetric(r2, std::nan("")), std::string("n/a"));
}

void TestMetrics::acceptsVectorViews()
{
    // A Map over a std::vector and a segment of a longer vector bind to the
    // Eigen::Ref parameters without copies; the scores equal those of the
    // "under-prediction only" row above.
    std::vector<double> actualStorage{1000, 2000};
    const Eigen::Map<const Eigen::VectorXd> actual(actualStorage.data(), 2);
    const Eigen::VectorXd longer = toVector({-1, 900, 1800, -1});

    const RegressionMetrics metrics = gpumem::evaluation::computeMetrics(actual, longer.segment(1, 2));
    QCOMPARE(metrics.mse, 25000.0);
    QCOMPARE(metrics.r2, 0.9);
    QCOMPARE(gpumem::evaluation::binAccuracy(actual, longer.segment(1, 2), {0, 1000, 2000}), 0.0);
}

void TestMetrics::computeMetricsRejectsBadSizes_data()
{
    addColumns<int, int>("actualSize", "predictedSize");

    addRow("both empty", 0, 0);
    addRow("predicted shorter", 3, 2);
    addRow("actual shorter", 1, 4);
    addRow("actual empty", 0, 1);
}

void TestMetrics::computeMetricsRejectsBadSizes()
{
    QFETCH(int, actualSize);
    QFETCH(int, predictedSize);

    const Eigen::VectorXd actual = Eigen::VectorXd::Constant(actualSize, 100.0);
    const Eigen::VectorXd predicted = Eigen::VectorXd::Constant(predictedSize, 100.0);
    const std::optional<std::string> message =
        invalidArgumentMessage([&] { gpumem::evaluation::computeMetrics(actual, predicted); });
    QVERIFY2(message.has_value(), "computeMetrics did not throw std::invalid_argument");
    QVERIFY(message->find("computeMetrics") != std::string::npos);
    if (actualSize != predictedSize) {
        // The message names both lengths so the caller can see which is wrong.
        QVERIFY(message->find(std::to_string(actualSize)) != std::string::npos);
        QVERIFY(message->find(std::to_string(predictedSize)) != std::string::npos);
    }
}

void TestMetrics::binAccuracy_data()
{
    addColumns<QList<double>, QList<double>, QList<double>, double>("actual", "predicted", "edges", "accuracy");

    // 1000-MiB bins: (-inf,0), [0,1000), [1000,2000), [2000,3000), [3000,4000), [4000,+inf)
    const QList<double> thousands{0, 1000, 2000, 3000, 4000};

    // 500/900 both in [0,1000): hit; 1500/2100 differ: miss; 2999/2000 both in
    // [2000,3000): hit; 4500/9000 both in the open top bin: hit; 999/1000 straddle
    // an edge: miss. 3 hits of 5.
    addRow("1000-MiB bins", QList<double>{500, 1500, 2999, 4500, 999}, QList<double>{900, 2100, 2000, 9000, 1000},
           thousands, 0.6);
    // An edge belongs to the bin above it: 1000 and 1999 share [1000,2000), 2000 does not.
    addRow("edge goes up", QList<double>{1000, 1000}, QList<double>{1999, 2000}, thousands, 0.5);
    // A negative prediction lands in (-inf,0), apart from every real measurement;
    // two negatives share that bin.
    addRow("negative prediction", QList<double>{100, -5}, QList<double>{-5, -700}, thousands, 0.5);
    addRow("all hits", QList<double>{10, 1010, 2010}, QList<double>{990, 1990, 2990}, thousands, 1.0);
    // No edges: a single bin holds everything.
    addRow("no edges", QList<double>{1, 5000}, QList<double>{-1e9, 1e9}, QList<double>{}, 1.0);
    // One edge at 2048: bins (-inf,2048), [2048,+inf). Hits: 100/2047, 4096/2048. 2 of 3.
    addRow("single edge", QList<double>{100, 4096, 2047}, QList<double>{2047, 2048, 2048}, QList<double>{2048},
           2.0 / 3.0);
    // A NaN never matches, not even another NaN.
    addRow("not a number", QList<double>{kNotANumber, 500, 500}, QList<double>{kNotANumber, kNotANumber, 600},
           thousands, 1.0 / 3.0);
}

void TestMetrics::binAccuracy()
{
    QFETCH(QList<double>, actual);
    QFETCH(QList<double>, predicted);
    QFETCH(QList<double>, edges);
    QFETCH(double, accuracy);

    const std::vector<double> binEdges(edges.begin(), edges.end());
    QCOMPARE(gpumem::evaluation::binAccuracy(toVector(actual), toVector(predicted), binEdges), accuracy);
}

void TestMetrics::binAccuracyRejectsBadEdges_data()
{
    addColumns<QList<double>>("edges");

    addRow("repeated edge", QList<double>{0, 1000, 1000, 2000});
    addRow("descending", QList<double>{2000, 1000});
    addRow("not a number", QList<double>{0, kNotANumber, 2000});
    addRow("infinite", QList<double>{0, kInfinity});
    addRow("minus infinity", QList<double>{-kInfinity, 0});
}

void TestMetrics::binAccuracyRejectsBadEdges()
{
    QFETCH(QList<double>, edges);

    const std::vector<double> binEdges(edges.begin(), edges.end());
    const std::optional<std::string> message =
        invalidArgumentMessage([&] { gpumem::evaluation::binAccuracy(toVector({500}), toVector({500}), binEdges); });
    QVERIFY2(message.has_value(), "binAccuracy did not throw std::invalid_argument");
    QVERIFY(message->find("edge") != std::string::npos);
}

void TestMetrics::binAccuracyRejectsBadSizes()
{
    const std::vector<double> edges{0, 1000};
    QVERIFY(invalidArgumentMessage([&] { gpumem::evaluation::binAccuracy(toVector({1, 2}), toVector({1}), edges); }));
    QVERIFY(
        invalidArgumentMessage([&] { gpumem::evaluation::binAccuracy(Eigen::VectorXd(), Eigen::VectorXd(), edges); }));
}

void TestMetrics::uniformBinEdges_data()
{
    addColumns<double, double, QList<double>>("width", "upTo", "edges");

    addRow("1000 MiB up to 4000", 1000.0, 4000.0, QList<double>{0, 1000, 2000, 3000, 4000});
    addRow("1000 MiB up to 3500", 1000.0, 3500.0, QList<double>{0, 1000, 2000, 3000});
    addRow("up to 0", 1000.0, 0.0, QList<double>{0});
    addRow("width above limit", 8192.0, 1000.0, QList<double>{0});
    // 3 · 0.1 is 0.30000000000000004 in binary, above 0.3, so it is left out.
    addRow("fractional width", 0.1, 0.3, QList<double>{0, 0.1, 0.2});
}

void TestMetrics::uniformBinEdges()
{
    QFETCH(double, width);
    QFETCH(double, upTo);
    QFETCH(QList<double>, edges);

    const std::vector<double> result = gpumem::evaluation::uniformBinEdges(width, upTo);
    QCOMPARE(QList<double>(result.begin(), result.end()), edges);
}

void TestMetrics::uniformBinEdgesRejectsBadArguments_data()
{
    addColumns<double, double>("width", "upTo");

    addRow("zero width", 0.0, 4000.0);
    addRow("negative width", -1000.0, 4000.0);
    addRow("not-a-number width", kNotANumber, 4000.0);
    addRow("infinite width", kInfinity, 4000.0);
    addRow("negative limit", 1000.0, -1.0);
    addRow("not-a-number limit", 1000.0, kNotANumber);
    addRow("infinite limit", 1000.0, kInfinity);
    // Bytes passed where MiB were meant: 80 GiB in 1-byte-wide bins.
    addRow("too many edges", 1.0, 80.0 * 1024 * 1024 * 1024);
}

void TestMetrics::uniformBinEdgesRejectsBadArguments()
{
    QFETCH(double, width);
    QFETCH(double, upTo);

    QVERIFY2(invalidArgumentMessage([&] { gpumem::evaluation::uniformBinEdges(width, upTo); }),
             "uniformBinEdges did not throw std::invalid_argument");
}

QTEST_GUILESS_MAIN(TestMetrics)
#include "test_Metrics.moc"
