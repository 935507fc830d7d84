// SPDX-License-Identifier: GPL-3.0-or-later
// The records' JSON forms (to_json/from_json) and the one place that writes a document.
#include "CommandLineRun.h"

#include "calibration/BoundMetrics.h"
#include "evaluation/Experiment.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "report/ComparisonReport.h"
#include "report/ExperimentJson.h"
#include "runtime/LibraryVersions.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

using namespace gpumem;

namespace {

constexpr double notANumber = std::numeric_limits<double>::quiet_NaN();

evaluation::ExperimentResult smallComparison()
{
    evaluation::ExperimentResult result;
    result.splits.resize(2);
    evaluation::ModelResult model;
    model.name = "ridge";
    model.title = "Ridge";
    for (int fold = 0; fold < 2; ++fold) {
        evaluation::FoldResult foldResult;
        foldResult.fold = fold;
        foldResult.metrics = evaluation::filledMetrics(10.0 + fold);
        model.folds.push_back(foldResult);
    }
    model.mean = evaluation::filledMetrics(10.5);
    model.standardDeviation = evaluation::filledMetrics(0.5);
    result.models = {model};
    result.best = "ridge";
    result.failures = {{"formula", "needs a sequence column"}};
    result.seconds = 1.25;
    return result;
}

std::string reportText(const report::ComparisonContext &context, const evaluation::ExperimentResult &result)
{
    std::ostringstream out;
    report::writeJsonReport(out, context, result);
    return out.str();
}

} // namespace

class TestRecordJson : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void documentsKeepTheWritersLayout()
    {
        const io::Json document{{"a", {1, 2.5}}, {"b", {{"c", notANumber}}}, {"d", "x"}, {"e", io::Json::array()}};
        QCOMPARE(io::jsonDocumentText(document), std::string("{\n"
                                                             "  \"a\": [\n"
                                                             "    1,\n"
                                                             "    2.5\n"
                                                             "  ],\n"
                                                             "  \"b\": {\n"
                                                             "    \"c\": null\n"
                                                             "  },\n"
                                                             "  \"d\": \"x\",\n"
                                                             "  \"e\": []\n"
                                                             "}\n"));
        QCOMPARE(io::jsonDocumentText(document, {/*indent=*/0}),
                 std::string(R"({"a":[1,2.5],"b":{"c":null},"d":"x","e":[]})"));
    }

    void aDocumentThatMustBeFiniteRefusesNaN()
    {
        io::JsonDocumentOptions options;
        options.refuseNonFiniteNumbers = true;
        QVERIFY_EXCEPTION_THROWN(io::jsonDocumentText(io::Json{{"x", notANumber}}, options), io::InputError);
        QCOMPARE(io::jsonDocumentText(io::Json{{"x", 0.1}}, options), std::string("{\n  \"x\": 0.1\n}\n"));
    }

    // Regression: the report wrote its seed through a signed 64-bit integer, so
    // `compare --seed 18446744073709551615` reported "seed": -1.
    void theReportWritesAHugeSeedExactly()
    {
        report::ComparisonContext context;
        context.seed = std::numeric_limits<std::uint64_t>::max();
        const io::Json read = io::parseJson(reportText(context, smallComparison()), "report");
        QVERIFY(read.at("seed").is_number_unsigned());
        QCOMPARE(read.at("seed").get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
    }

    // The report is its header, the experiment's own JSON form and the versions, in that order.
    void theReportEmbedsTheExperimentsForm()
    {
        report::ComparisonContext context;
        context.rows = 80;
        context.features = {"batch", "layers"};
        const evaluation::ExperimentResult result = smallComparison();
        io::Json read = io::parseJson(reportText(context, result), "report");

        std::vector<std::string> keys;
        for (const auto &item : read.items())
            keys.push_back(item.key());
        const std::vector<std::string> expected{
            "dataset",       "target",   "rows",      "features", "folds",    "group_by",
            "test_fraction", "seed",     "splits",    "repeats",  "models",   "best",
            "significance",  "failures", "cancelled", "seconds",  "warnings", "library_versions"};
        QCOMPARE(keys, expected);
        QCOMPARE(read.at("rows").get<int>(), 80);
        QVERIFY(read.at("library_versions") == io::Json(runtime::libraryVersions()));

        for (const char *key : {"dataset", "target", "rows", "features", "folds", "group_by", "test_fraction", "seed",
                                "library_versions"})
            read.erase(key);
        QVERIFY(read == io::parseJson(io::jsonDocumentText(io::Json(result)), "experiment"));
        QCOMPARE(read.at("failures").at(0).at("message").get<std::string>(), std::string("needs a sequence column"));
    }

    void boundMetricsReadBackWhatTheyWrote()
    {
        calibration::BoundMetrics written;
        written.rows = 24;
        written.underPredictionRate = 0.125;
        written.meanOverAllocation = 30.5;
        written.medianOverAllocation = notANumber;
        written.meanOverAllocationPercent = 2.25;
        written.medianOverAllocationPercent = 1.0;
        const io::Json json = io::parseJson(io::jsonDocumentText(io::Json(written)), "bound");
        QVERIFY(json.at("median_over_allocation_mib").is_null());
        const auto read = json.get<calibration::BoundMetrics>();
        QCOMPARE(read.rows, std::size_t{24});
        QCOMPARE(read.underPredictionRate, 0.125);
        QCOMPARE(read.meanOverAllocation, 30.5);
        QVERIFY(std::isnan(read.medianOverAllocation));
        QCOMPARE(read.meanOverAllocationPercent, 2.25);
        QCOMPARE(read.medianOverAllocationPercent, 1.0);

        for (const io::Json &rows : {io::Json(-1), io::Json(2.5), io::Json("24")}) {
            io::Json bad = json;
            bad["rows"] = rows;
            QVERIFY_EXCEPTION_THROWN(bad.get<calibration::BoundMetrics>(), io::InputError);
        }
    }

    void aTradeOffPointHasTheReportsKeys()
    {
        const calibration::TradeOffPoint point{1.5, 0.25, 30.0};
        QCOMPARE(io::jsonDocumentText(io::Json(point), {/*indent=*/0}),
                 std::string(R"({"margin":1.5,"under_rate":0.25,"mean_over_alloc_mib":30})"));
        const auto read = io::Json(point).get<calibration::TradeOffPoint>();
        QCOMPARE(read.margin, 1.5);
        QCOMPARE(read.underPredictionRate, 0.25);
        QCOMPARE(read.meanOverAllocation, 30.0);
    }

    void aPairedTestReadsBackWhatItWrote()
    {
        // model, versus, test, what was paired, pairs, statistic, p-value, reported
        const evaluation::PairedTest written{"decision_tree", "random_forest", "wilcoxon", "rmse per fold", 6,
                                             notANumber,      0.03125,         true};
        const io::Json json = io::parseJson(io::jsonDocumentText(io::Json(written)), "test");
        QVERIFY(json.at("statistic").is_null());
        const auto read = json.get<evaluation::PairedTest>();
        QCOMPARE(read.model, written.model);
        QCOMPARE(read.versus, written.versus);
        QCOMPARE(read.test, written.test);
        QCOMPARE(read.metric, written.metric);
        QCOMPARE(read.pairs, 6);
        QVERIFY(std::isnan(read.statistic));
        QCOMPARE(read.pValue, 0.03125);
        QVERIFY(read.reported);
        io::Json older = json;
        older.erase("reported"); // reports written before the member existed
        QVERIFY(!older.get<evaluation::PairedTest>().reported);
    }

    void theVersionsFollowTheirEntries()
    {
        const io::Json json = io::Json(runtime::libraryVersions());
        const auto entries = runtime::libraryVersions().entries();
        QCOMPARE(json.size(), entries.size());
        std::size_t index = 0;
        for (const auto &item : json.items()) {
            QCOMPARE(item.key(), entries[index].first);
            QCOMPARE(item.value().get<std::string>(), entries[index].second);
            ++index;
        }
    }

    // train's summary writes its trade-off curve in the comparison report's form.
    void trainsSummaryUsesTheReportsCurvePoints()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const tests::Run run = tests::runGpumem(
            {"train", GPUMEM_TEST_DATA_DIR "/jobs_training.csv", "--target", "memory_mib", "--model", "ridge",
             "--test-fraction", "0.3", "--coverage", "0.8", "--json", "--out", folder.filePath("model").toStdString()});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const std::string last = run.out.substr(run.out.rfind('\n', run.out.size() - 2) + 1);
        const io::Json summary = io::parseJson(last, "summary");
        const io::Json &calibrated = summary.at("calibration");
        const io::Json &curve = calibrated.at("test_trade_off");
        QCOMPARE(curve.size(), std::size_t{101});
        for (const auto &point : curve) {
            QCOMPARE(point.size(), std::size_t{3});
            QVERIFY(point.contains("margin") && point.contains("under_rate") && point.contains("mean_over_alloc_mib"));
        }
        QCOMPARE(curve.front().at("margin").get<double>(), 0.0);
        // The bound on the test rows reads back as bound metrics: 24 of the 80 rows are test rows.
        QCOMPARE(calibrated.at("test_bound").get<calibration::BoundMetrics>().rows, std::size_t{24});
    }
};

QTEST_GUILESS_MAIN(TestRecordJson)
#include "test_RecordJson.moc"
