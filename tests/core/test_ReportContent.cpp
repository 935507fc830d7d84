// SPDX-License-Identifier: GPL-3.0-or-later
// What a person reads in the comparison report: the finding in one sentence with its
// uncertainty (checked on a case worked out by hand, its p-value from SciPy), long job
// names shortened but still told apart and given whole in notes, a worst-rows table that
// stays within a page, the residual histograms, and every number of the HTML and Markdown
// reports written as the JSON report's value formatted for people.
#include "ComparisonFixtures.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "report/ComparisonReport.h"
#include "report/FindingSentence.h"
#include "report/ShortNames.h"
#include "report/WorstRows.h"

#include <QTest>

#include <cmath>
#include <set>
#include <sstream>

using namespace gpumem;

namespace {

// A model scored by its per-fold RMSEs: mean and sample standard deviation worked out here.
evaluation::ModelResult modelWithFolds(const std::string &name, const std::string &title,
                                       const std::vector<double> &rmse)
{
    evaluation::ModelResult model;
    model.name = name;
    model.title = title;
    double sum = 0.0;
    for (double value : rmse)
        sum += value;
    const double mean = sum / static_cast<double>(rmse.size());
    double squares = 0.0;
    for (double value : rmse)
        squares += (value - mean) * (value - mean);
    for (std::size_t fold = 0; fold < rmse.size(); ++fold) {
        evaluation::FoldResult result;
        result.fold = static_cast<int>(fold);
        result.metrics.rmse = rmse[fold];
        model.folds.push_back(result);
    }
    model.mean.rmse = mean;
    model.standardDeviation.rmse = std::sqrt(squares / static_cast<double>(rmse.size() - 1));
    return model;
}

// Five folds; "Ridge" best (RMSE 10, 12, 11, 13, 9), "Tree" second (14, 15, 13, 16, 12), "Boost" last.
// The names are the registry's, which the JSON report looks the models' libraries up by.
evaluation::ExperimentResult fiveFolds()
{
    evaluation::ExperimentResult result;
    result.splits.resize(5);
    result.models = {modelWithFolds("adaboost", "Boost", {20, 22, 19, 21, 23}),
                     modelWithFolds("ridge", "Ridge", {10, 12, 11, 13, 9}),
                     modelWithFolds("decision_tree", "Tree", {14, 15, 13, 16, 12})};
    result.best = "ridge";
    return result;
}

std::vector<double> foldRmse(const evaluation::ModelResult &model)
{
    std::vector<double> values;
    for (const auto &fold : model.folds)
        values.push_back(fold.metrics.rmse);
    return values;
}

// A comparison of 60 jobs whose names are long and alike but for their middles, with
// every model missing some of them.
evaluation::ExperimentResult manyMisses(report::ComparisonContext &context)
{
    evaluation::ExperimentResult result = fiveFolds();
    const Eigen::Index rows = 60;
    result.actual = Eigen::VectorXd::LinSpaced(rows, 1000.0, 6900.0);
    for (Eigen::Index row = 0; row < rows; ++row) {
        context.rowNames.push_back("input:" + std::to_string(4000 + row) +
                                   "_depth:10_arch:uniform_act:leaky_relu_dropout:0.4774396549665_batchnorm:True.out");
        context.rowLines.push_back(row + 2);
    }
    for (std::size_t m = 0; m < result.models.size(); ++m) {
        auto &model = result.models[m];
        model.predictions = result.actual;
        for (Eigen::Index row = 0; row < rows; row += 2) // every second job under-predicted
            model.predictions[row] -= 10.0 * static_cast<double>(m + 1) + static_cast<double>(row);
    }
    return result;
}

} // namespace

class TestReportContent : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void findingStatesTheBestTheRunnerUpAndTheirDifference()
    {
        evaluation::ExperimentResult result = fiveFolds();
        // SciPy: stats.ttest_rel([14, 15, 13, 16, 12], [10, 12, 11, 13, 9]) gives t = 9.4868, p = 0.000689.
        evaluation::PairedTest test = evaluation::pairedTTest(foldRmse(result.models[2]), foldRmse(result.models[1]));
        QVERIFY(std::abs(test.pValue - 0.0006889093649396111) < 1e-9);
        test.model = "decision_tree";
        test.versus = "ridge";
        test.reported = true;
        result.significance = {test};
        QCOMPARE(report::findingSentence(result),
                 std::string("Ridge has the lowest RMSE, 11.00 ± 1.581 MiB over 5 folds; Tree is second, "
                             "14.00 ± 1.581 MiB; the difference is significant (paired t-test, p = 0.0007)."));
        result.significance.front().pValue = 0.31;
        QVERIFY(report::findingSentence(result).find("the difference is not significant (paired t-test, p = "
                                                     "0.3100)") != std::string::npos);
        // Too few folds for a test to be shown: the sentence says so instead of a p-value.
        result.significance.front().reported = false;
        result.significance.front().pairs = 3;
        QVERIFY(report::findingSentence(result).find("with 3 folds the difference is not tested (a test needs ≥ 5 "
                                                     "folds)") != std::string::npos);
        // A hold-out has no spread to give.
        result.splits.resize(1);
        result.significance.clear();
        QCOMPARE(report::findingSentence(result),
                 std::string("Ridge has the lowest RMSE, 11.00 MiB on the held-out rows; Tree is second, 14.00 MiB; "
                             "the difference was not tested."));
        result.models.resize(0);
        QVERIFY(report::findingSentence(result).rfind("No model", 0) == 0);
    }

    void everyReportOpensWithTheFinding()
    {
        evaluation::ExperimentResult result = fiveFolds();
        const std::string sentence = report::findingSentence(result);
        const report::ComparisonContext context = tests::jobsComparisonContext("memory", 60, 5);
        std::ostringstream html;
        report::writeHtmlReport(html, context, result);
        std::ostringstream markdown;
        report::writeMarkdownReport(markdown, context, result);
        // The HTML escapes nothing in this sentence, and it comes before the first table.
        const std::size_t found = html.str().find("<p class='finding'>" + sentence + "</p>");
        QVERIFY2(found != std::string::npos, html.str().c_str());
        QVERIFY(found < html.str().find("<table"));
        QVERIFY(markdown.str().find("**Finding.** " + sentence) < markdown.str().find("| Model |"));
    }

    void longNamesAreShortenedInTheMiddleAndStayDistinct()
    {
        QCOMPARE(report::elidedInTheMiddle("short name", 20), std::string("short name"));
        // 9 characters kept: 5 from the start, 4 from the end, and the ellipsis between.
        QCOMPARE(report::elidedInTheMiddle("abcdefghijklmnopqrstuvwxyz", 10), std::string("abcde…wxyz"));
        // Code points, not bytes: "é" counts once and is never cut in two.
        QCOMPARE(report::elidedInTheMiddle("ééééééééééééé", 5), std::string("éé…éé"));
        // Two names alike at both ends keep more of their middles until they differ.
        const std::vector<std::string> names{"run-alpha-0001-end", "run-alpha-0002-end", "run-alpha-0001-end", "x"};
        const auto shortened = report::shortenedNames(names, 8);
        QCOMPARE(shortened[0], shortened[2]);
        QVERIFY(shortened[0] != shortened[1]);
        QCOMPARE(shortened[3], std::string("x"));
        for (std::size_t i = 0; i < 2; ++i)
            QVERIFY2(shortened[i].size() < names[i].size(), shortened[i].c_str());
    }

    void worstRowsAreBoundedWithWholeNamesInNotes()
    {
        report::ComparisonContext context = tests::jobsComparisonContext("memory", 60, 5);
        const evaluation::ExperimentResult result = manyMisses(context);
        const report::WorstRows worst = report::worstRows(context, result);
        QCOMPARE(worst.rows.size(), report::reportedUnderPredictions);
        // The largest shortfalls of any model, largest first: the last model misses each job by most.
        for (std::size_t i = 1; i < worst.rows.size(); ++i)
            QVERIFY(worst.rows[i - 1].under.shortfall() >= worst.rows[i].under.shortfall());
        QCOMPARE(worst.rows.front().under.shortfall(), 30.0 + 58.0);
        std::set<std::string> shown;
        for (const auto &row : worst.rows) {
            const std::string whole = report::jobName(context, row.under.row);
            QVERIFY(row.job.size() < whole.size());
            QVERIFY(row.note >= 1 && row.note <= static_cast<int>(worst.notes.size()));
            QCOMPARE(worst.notes[static_cast<std::size_t>(row.note - 1)], whole);
            // The end of the name, with the job's line, survives the shortening.
            QVERIFY(row.job.find("(line " + std::to_string(context.rowLines[row.under.row]) + ")") !=
                    std::string::npos);
            shown.insert(row.job);
        }
        // One note per job, however many models missed it; a name per job.
        QCOMPARE(worst.notes.size(), shown.size());
        std::ostringstream html;
        report::writeHtmlReport(html, context, result);
        QVERIFY(html.str().find(htmlNote(worst.notes.front())) != std::string::npos);
    }

    void htmlHoldsEachModelsResidualHistogram()
    {
        report::ComparisonContext context = tests::jobsComparisonContext("memory", 60, 5);
        const evaluation::ExperimentResult result = manyMisses(context);
        std::vector<std::string> ids;
        report::HtmlReportOptions options;
        options.renderChart = [&ids](const report::ReportChart &chart, const std::string &svg) {
            ids.push_back(chart.id);
            return svg;
        };
        std::ostringstream html;
        report::writeHtmlReport(html, context, result, options);
        for (const auto &model : result.models)
            QVERIFY2(std::count(ids.begin(), ids.end(), "residuals_" + model.name) == 1, model.name.c_str());
        QVERIFY(html.str().find("<h2>Residuals</h2>") != std::string::npos);
        // Every model under-predicts half the jobs: each histogram has red bins, and the page holds it.
        for (const auto &drawing : report::residualCharts(result)) {
            QVERIFY(drawing.svg.find("class='bin under'") != std::string::npos);
            QVERIFY(html.str().find(drawing.svg) != std::string::npos);
        }
    }

    // The reports agree to the digit: every mean and spread of the HTML and Markdown reports
    // is the JSON report's number written by the metric's own format.
    void numbersAgreeWithTheJsonReport()
    {
        evaluation::ExperimentResult result = fiveFolds();
        for (std::size_t m = 0; m < result.models.size(); ++m)
            for (const auto &metric : evaluation::metricDescriptions()) {
                result.models[m].mean.*metric.member = 0.123456789 * static_cast<double>(m + 3) + metric.key[0];
                result.models[m].standardDeviation.*metric.member = 0.0101 * static_cast<double>(m + 1);
            }
        const report::ComparisonContext context = tests::jobsComparisonContext("memory", 60, 5);
        std::ostringstream json;
        report::writeJsonReport(json, context, result);
        std::ostringstream html;
        report::writeHtmlReport(html, context, result);
        std::ostringstream markdown;
        report::writeMarkdownReport(markdown, context, result);
        const io::Json parsed = io::parseJson(json.str(), "report.json");
        for (const auto &model : io::toArray(io::member(parsed, "models"))) {
            const std::string title = io::toString(io::member(model, "title"));
            const std::size_t row = html.str().find("<tr><td>" + title + "</td>");
            QVERIFY(row != std::string::npos);
            const std::string htmlRow = html.str().substr(row, html.str().find("</tr>", row) - row);
            for (const auto &metric : evaluation::metricDescriptions()) {
                if (metric.group != evaluation::MetricGroup::Accuracy)
                    continue;
                const double mean = io::toNumber(io::member(io::member(model, "metrics"), metric.key));
                const double spread = io::toNumber(io::member(io::member(model, "std"), metric.key));
                QVERIFY2(htmlRow.find(">" + evaluation::formatMetric(metric, mean)) != std::string::npos, metric.key);
                QVERIFY2(htmlRow.find("± " + evaluation::formatMetric(metric, spread)) != std::string::npos,
                         metric.key);
                QVERIFY2(markdown.str().find(evaluation::formatMetric(metric, mean)) != std::string::npos, metric.key);
            }
        }
        // The sentence's numbers are the RMSE column's.
        const std::string rmse =
            evaluation::formatMetric(evaluation::metricDescription("rmse"), result.models[1].mean.rmse);
        QVERIFY(report::findingSentence(result).find(rmse) != std::string::npos);
    }

  private:
    static std::string htmlNote(const std::string &name) { return "<sup>1</sup> " + name; }
};

QTEST_APPLESS_MAIN(TestReportContent)
#include "test_ReportContent.moc"
