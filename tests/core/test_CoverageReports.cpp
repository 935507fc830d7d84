// SPDX-License-Identifier: GPL-3.0-or-later
// Calibrated upper bounds in comparison reports: each format holds the bound only
// when the comparison calibrated, with the values the comparison computed; the
// project file keeps every one of them.
#include "CommandLineRun.h"
#include "CoverageFixtures.h"
#include "RaisedInputError.h"

#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "report/ComparisonReport.h"
#include "report/ExperimentJson.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <sstream>

using namespace gpumem;
using namespace gpumem::tests;

namespace {

std::string fileText(const std::string &path)
{
    return readText(QString::fromStdString(path));
}

} // namespace

class TestCoverageReports : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // Without --coverage the reports hold no trace of a bound; with it every
    // format gains its section, and the JSON's means are the per-fold means.
    void reportsHoldTheBoundOnlyWhenAsked()
    {
        QTemporaryDir scratch;
        QVERIFY(scratch.isValid());
        const std::string base = scratch.path().toStdString();
        for (const bool bounded : {false, true}) {
            const std::string stem = base + (bounded ? "/bounded" : "/plain");
            std::vector<std::string> arguments = quickCompare;
            for (const char *extension : {".json", ".md", ".csv", ".html"})
                arguments.insert(arguments.end(), {"--report", stem + extension});
            if (bounded)
                arguments.insert(arguments.end(), {"--coverage", "0.8", "--calibration-fraction", "0.5"});
            const tests::Run run = tests::runGpumem(arguments);
            QVERIFY2(run.exitCode == 0, run.err.c_str());
            const std::string markdown = fileText(stem + ".md");
            const std::string csv = fileText(stem + ".csv");
            const std::string html = fileText(stem + ".html");
            const io::Json json = io::parseJson(fileText(stem + ".json"), stem + ".json");
            QCOMPARE(markdown.find("## Calibrated upper bound (coverage 80%)") != std::string::npos, bounded);
            QCOMPARE(csv.find("bound_under_prediction_rate") != std::string::npos, bounded);
            QCOMPARE(html.find("Out-of-memory risk vs wasted memory") != std::string::npos, bounded);
            QCOMPARE(html.find("Calibrated upper bound (coverage 80%)") != std::string::npos, bounded);
            for (const auto &model : io::toArray(io::member(json, "models")))
                QCOMPARE(io::findMember(model, "bound") != nullptr, bounded);
            if (!bounded)
                continue;
            for (const auto &model : io::toArray(io::member(json, "models"))) {
                const io::Json &bound = io::member(model, "bound");
                QCOMPARE(io::toNumber(io::member(bound, "coverage")), 0.8);
                QCOMPARE(io::toString(io::member(bound, "score")), std::string("difficulty"));
                const auto &folds = io::toArray(io::member(bound, "per_fold"));
                QCOMPARE(folds.size(), std::size_t{2});
                double under = 0.0;
                double waste = 0.0;
                for (const auto &fold : folds) {
                    under += io::toNumber(io::member(io::member(fold, "bound"), "under_prediction_rate")) / 2.0;
                    waste +=
                        io::toNumber(io::member(io::member(fold, "ten_percent"), "mean_over_allocation_mib")) / 2.0;
                    QCOMPARE(io::toNumber(io::member(fold, "calibration_rows")), 20.0);
                    QCOMPARE(io::toArray(io::member(fold, "curve")).size(),
                             std::size_t(evaluation::tradeOffPointCount));
                }
                QVERIFY(std::abs(io::toNumber(io::member(io::member(bound, "bound"), "under_prediction_rate")) -
                                 under) < 1e-12);
                QVERIFY(
                    std::abs(io::toNumber(io::member(io::member(bound, "ten_percent"), "mean_over_allocation_mib")) -
                             waste) < 1e-9);
                const auto &curve = io::toArray(io::member(bound, "curve"));
                QCOMPARE(curve.size(), std::size_t(evaluation::tradeOffPointCount));
                QCOMPARE(io::toNumber(io::member(curve.front(), "under_rate")),
                         io::toNumber(io::member(io::member(model, "metrics"),
                                                 "under_rate"))); // no margin: the point prediction
                QVERIFY(io::findMember(curve.front(), "mean_over_alloc_mib") != nullptr);
                QVERIFY(io::findMember(bound, "upper_bounds") == nullptr); // rows only in project files
            }
            // The CSV's mean row carries the same mean as the JSON; std rows are empty.
            const auto rows = csvRows(stem + ".csv");
            const std::size_t column = columnNamed(rows.front(), "bound_under_prediction_rate");
            QVERIFY(column < rows.front().size());
            const double jsonMean = io::toNumber(
                io::member(io::member(io::member(io::toArray(io::member(json, "models")).front(), "bound"), "bound"),
                           "under_prediction_rate"));
            QCOMPARE(rows[3][2], std::string("mean"));
            QVERIFY(std::abs(std::stod(rows[3][column]) - jsonMean) < 1e-12);
            QCOMPARE(rows[4][2], std::string("std"));
            QVERIFY(rows[4][column].empty());
        }
    }

    // The project file's writer and reader keep every bound value, the per-row
    // upper bounds included; written again, the text is the same.
    void projectJsonRoundTripsTheBound()
    {
        const evaluation::ExperimentResult written = calibratedJobs();
        const auto text = [](const evaluation::ExperimentResult &result) {
            return io::jsonDocumentText(report::experimentJson(result, {/*withRows=*/true}));
        };
        const std::string first = text(written);
        const auto read = report::readExperimentResult(io::parseJson(first, "project"), "project");
        QVERIFY(read.calibration.has_value());
        QCOMPARE(read.calibration->coverage, 0.8);
        QCOMPARE(read.calibration->score, calibration::Score::Difficulty);
        QCOMPARE(read.calibration->fraction, 0.5);
        for (std::size_t m = 0; m < read.models.size(); ++m) {
            const auto &bound = *read.models[m].bound;
            const auto &original = *written.models[m].bound;
            QCOMPARE(bound.bound.meanOverAllocation, original.bound.meanOverAllocation);
            QCOMPARE(bound.fixedHeadroomPercent, original.fixedHeadroomPercent);
            QCOMPARE(bound.curve.size(), original.curve.size());
            QCOMPARE(bound.curve.back().underPredictionRate, original.curve.back().underPredictionRate);
            QVERIFY(bound.upperBounds.isApprox(original.upperBounds));
            QCOMPARE(read.models[m].folds[1].bound->margin, written.models[m].folds[1].bound->margin);
            QCOMPARE(read.models[m].folds[1].bound->calibrationRowCount,
                     written.models[m].folds[1].bound->calibrationRowCount);
        }
        QCOMPARE(text(read), first);
    }

    // A project file whose bound does not match its rows is refused in words.
    void malformedBoundsAreRefused()
    {
        const evaluation::ExperimentResult written = calibratedJobs();
        io::Json object = report::experimentJson(written, {/*withRows=*/true});
        object["models"][0]["bound"]["coverage"] = 1.5;
        const auto error =
            gpumem::tests::raisedInputError([&] { report::readExperimentResult(object, "project.gpumem.json"); });
        QCOMPARE(error.file(), std::string("project.gpumem.json"));
        QVERIFY2(error.message().find("coverage") != std::string::npos, error.message().c_str());
    }

    // The HTML chart of the curves goes through renderChart with the id
    // "bound_curves", one curve per model, and only when the run calibrated.
    void htmlChartIsReplaceableById()
    {
        report::ComparisonContext context;
        context.dataset = "jobs_training.csv";
        context.target = "memory_mib";
        context.folds = 2;
        for (const bool bounded : {false, true}) {
            evaluation::ExperimentResult result = calibratedJobs();
            if (!bounded) {
                result.calibration.reset();
                for (auto &model : result.models)
                    model.bound.reset();
            }
            std::vector<std::string> ids;
            std::string curvesSvg;
            report::HtmlReportOptions options;
            options.renderChart = [&](const report::ReportChart &chart, const std::string &svg) {
                ids.push_back(chart.id);
                if (chart.id == "bound_curves")
                    curvesSvg = svg;
                return "<img id='" + chart.id + "'>";
            };
            std::ostringstream html;
            report::writeHtmlReport(html, context, result, options);
            QCOMPARE(std::count(ids.begin(), ids.end(), "bound_curves"), std::ptrdiff_t(bounded ? 1 : 0));
            if (!bounded)
                continue;
            std::size_t lines = 0;
            for (std::size_t at = curvesSvg.find("<polyline"); at != std::string::npos;
                 at = curvesSvg.find("<polyline", at + 1))
                ++lines;
            QCOMPARE(lines, result.models.size());
            QVERIFY(curvesSvg.find("class='marker'") != std::string::npos);
            QVERIFY(curvesSvg.find("mean over-allocation (MiB)") != std::string::npos);
            QVERIFY(curvesSvg.find("Ridge regression") != std::string::npos);
        }
    }

    // A hand-built calibrated result: the Markdown table and the CSV show exactly
    // the values put in, formatted for people and for machines.
    void handBuiltBoundAppearsInMarkdownAndCsv()
    {
        evaluation::ExperimentResult result;
        result.splits.resize(1);
        result.actual = Eigen::VectorXd::Constant(4, 100.0);
        calibration::CalibrationSettings settings;
        settings.coverage = 0.95;
        settings.score = calibration::Score::Relative;
        result.calibration = settings;
        evaluation::ModelResult model;
        model.name = "ridge";
        model.title = "Ridge regression";
        model.hyperparameters = models::regressorHyperparameters("ridge");
        model.predictions = Eigen::VectorXd::Constant(4, 90.0);
        evaluation::FoldResult fold;
        evaluation::FoldBound foldBound;
        foldBound.bound = {4, 0.048, 27.1, 12.0, 1.41, 0.9};
        foldBound.tenPercent = {4, 0.0, 170.26, 160.0, 9.5, 9.0};
        foldBound.fixedHeadroomPercent = 3.2;
        foldBound.fixedHeadroom = {4, 0.05, 33.3, 30.0, 2.0, 1.9};
        fold.bound = foldBound;
        model.folds = {fold};
        evaluation::ModelBound bound;
        bound.bound = foldBound.bound;
        bound.tenPercent = foldBound.tenPercent;
        bound.fixedHeadroomPercent = foldBound.fixedHeadroomPercent;
        bound.fixedHeadroom = foldBound.fixedHeadroom;
        model.bound = bound;
        result.models = {model};
        result.best = "ridge";

        report::ComparisonContext context;
        context.dataset = "jobs.csv";
        context.target = "memory_mib";
        context.folds = 1;
        context.testFraction = 0.25;
        std::ostringstream markdown;
        report::writeMarkdownReport(markdown, context, result);
        const std::string text = markdown.str();
        QVERIFY2(text.find("## Calibrated upper bound (coverage 95%)") != std::string::npos, text.c_str());
        QVERIFY2(
            text.find("| Ridge regression | 4.8% | 27.10 | 12.00 | 1.41% | 0.0% | 170.3 | +3.20% | 5.0% | 33.30 |") !=
                std::string::npos,
            text.c_str());
        QVERIFY(text.find("relative score") != std::string::npos);

        std::ostringstream csv;
        report::writeCsvReport(csv, context, result);
        std::stringstream lines(csv.str());
        std::string header;
        std::string first;
        std::getline(lines, header);
        std::getline(lines, first);
        QVERIFY2(header.size() > 30 && header.substr(header.size() - 39) == "fixed_headroom_mean_over_allocation_mib",
                 header.c_str());
        QVERIFY2(first.find(",0.048,27.1,12,1.41,0,170.26,3.2,0.05,33.3") != std::string::npos, first.c_str());
    }
};

QTEST_APPLESS_MAIN(TestCoverageReports)
#include "test_CoverageReports.moc"
