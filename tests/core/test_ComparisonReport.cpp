// SPDX-License-Identifier: GPL-3.0-or-later
// The report writers on a hand-built comparison: the JSON parses back with
// every key of the documented schema, and the Markdown, CSV and HTML reports
// hold every model with the best values marked.
#include "ComparisonFixtures.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "models/Hyperparameters.h"
#include "models/RegressorRegistry.h"
#include "report/ComparisonReport.h"
#include "report/ExperimentJson.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace gpumem;

namespace {

evaluation::RegressionMetrics metrics(double rmse, double r2)
{
    evaluation::RegressionMetrics values;
    values.rmse = rmse;
    values.mse = rmse * rmse;
    values.mae = rmse * 0.6;
    values.r2 = r2;
    values.mape = 1.5;
    values.maxError = rmse * 4;
    values.underRate = 0.25;
    values.overAllocation = rmse * 0.3;
    return values;
}

evaluation::ModelResult model(const std::string &name, const std::string &title, double rmse, double r2)
{
    evaluation::ModelResult result;
    result.name = name;
    result.title = title;
    result.hyperparameters = models::Hyperparameters(
        {{"depth", models::HyperparameterType::Integer, std::int64_t{3}, 1, 10, {}, "", "Tree depth."}});
    for (int fold = 0; fold < 2; ++fold) {
        evaluation::FoldResult foldResult;
        foldResult.fold = fold;
        foldResult.metrics = metrics(rmse + (fold ? 1.0 : -1.0), r2);
        foldResult.trainSeconds = 0.5;
        result.folds.push_back(foldResult);
    }
    result.mean = metrics(rmse, r2);
    result.standardDeviation = metrics(std::sqrt(2.0), 0.0);
    result.trainSeconds = 1.0;
    result.predictions = Eigen::VectorXd::LinSpaced(4, 100.0, 130.0);
    return result;
}

evaluation::ExperimentResult comparison()
{
    evaluation::ExperimentResult result;
    result.splits = {{{2, 3}, {0, 1}}, {{0, 1}, {2, 3}}};
    result.actual = Eigen::VectorXd::LinSpaced(4, 101.0, 131.0);
    result.models = {model("random_forest", "Random forest", 28.0, 0.9964),
                     model("decision_tree", "Decision | tree", 38.0, 0.9933)};
    result.best = "random_forest";
    evaluation::PairedTest test = tests::twoFoldPairedTTest("decision_tree", "random_forest", 0.0123);
    test.reported = true;
    result.significance = {test};
    return result;
}

report::ComparisonContext context()
{
    report::ComparisonContext values = tests::jobsComparisonContext("memory", 4, 2);
    values.features = {"batch", "layers"};
    values.seed = 7;
    return values;
}

std::string written(report::ReportFormat format)
{
    std::ostringstream out;
    report::writeReport(out, format, context(), comparison());
    return out.str();
}

} // namespace

class TestComparisonReport : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void experimentJsonReadsBackWhatItWrote()
    {
        // One writer and one reader for the report and the project file: every member survives.
        evaluation::ExperimentResult written = comparison();
        for (auto &model : written.models) // the reader takes each model's hyperparameters from the registry
            model.hyperparameters = models::regressorHyperparameters(model.name);
        written.models[0].hyperparameters.setAssignment("n_estimators=7");
        written.models[1].predictions[2] = std::nan(""); // a row the model never tested
        written.models[0].folds[1].stopReason = training::StopReason::EarlyStopped;
        written.warnings = {"a warning"};
        const std::string text = io::jsonDocumentText(report::experimentJson(written, {/*withRows=*/true}));
        const auto read = report::readExperimentResult(io::parseJson(text, "project"), "project");
        QCOMPARE(read.splits.size(), written.splits.size());
        QCOMPARE(read.best, written.best);
        QCOMPARE(read.warnings, written.warnings);
        QVERIFY(read.actual.isApprox(written.actual));
        QCOMPARE(read.models.size(), written.models.size());
        for (std::size_t index = 0; index < read.models.size(); ++index) {
            const auto &model = read.models[index];
            const auto &original = written.models[index];
            QCOMPARE(model.title, original.title);
            for (const auto &metric : evaluation::metricDescriptions()) {
                QCOMPARE(model.mean.*metric.member, original.mean.*metric.member);
                QCOMPARE(model.folds[1].metrics.*metric.member, original.folds[1].metrics.*metric.member);
            }
            QCOMPARE(model.folds[1].trainSeconds, original.folds[1].trainSeconds);
            QCOMPARE(model.folds[1].stopReason, original.folds[1].stopReason);
            for (const auto &spec : original.hyperparameters.specs())
                QCOMPARE(model.hyperparameters.text(spec.name), original.hyperparameters.text(spec.name));
            for (Eigen::Index row = 0; row < original.predictions.size(); ++row)
                QVERIFY(model.predictions[row] == original.predictions[row] ||
                        (std::isnan(model.predictions[row]) && std::isnan(original.predictions[row])));
        }
        QCOMPARE(read.significance.front().pValue, 0.0123);
        QVERIFY(read.significance.front().reported);
    }

    void aProjectsComparisonWithCountsOutOfRangeIsRefused_data()
    {
        QTest::addColumn<QString>("member");
        QTest::addColumn<double>("value");
        // A double converted to a count out of its range is undefined behaviour, and a
        // fraction silently became another count.
        QTest::newRow("splits -5") << QStringLiteral("splits") << -5.0;
        QTest::newRow("splits 1e300") << QStringLiteral("splits") << 1e300;
        QTest::newRow("splits 2.5") << QStringLiteral("splits") << 2.5;
        QTest::newRow("pairs 1e300") << QStringLiteral("pairs") << 1e300;
        QTest::newRow("pairs -3") << QStringLiteral("pairs") << -3.0;
    }
    void aProjectsComparisonWithCountsOutOfRangeIsRefused()
    {
        QFETCH(QString, member);
        QFETCH(double, value);
        evaluation::ExperimentResult written = comparison();
        for (auto &model : written.models)
            model.hyperparameters = models::regressorHyperparameters(model.name);
        io::Json edited = report::experimentJson(written, {/*withRows=*/true});
        if (member == QStringLiteral("splits"))
            edited["splits"] = value;
        else
            edited["significance"][0]["pairs"] = value;
        try {
            report::readExperimentResult(edited, "project.gpumem");
            QFAIL("no error was raised");
        } catch (const io::InputError &error) {
            QCOMPARE(error.file(), std::string("project.gpumem"));
            const std::string expected = "\"" + member.toStdString() + "\" must be a whole number from 0 to ";
            QVERIFY2(error.message().find(expected) != std::string::npos, error.what());
        }
    }

    void repeatedFoldsRoundTripAndReport();
    void jsonParsesBackWithTheDocumentedSchema();
    void markdownHasThePaperTableWithTheBestInBold();
    void csvHasOneRowPerModelAndFold();
    void htmlHoldsEveryModelAndItsCharts();
    void formatFollowsTheExtension();
    void saveWritesTheFileAtomically();
    void significanceFollowsOneRule();
};

void TestComparisonReport::repeatedFoldsRoundTripAndReport()
{
    // Two repetitions of the two folds: four fits per model, the second pair of repetition 1.
    evaluation::ExperimentResult repeated = comparison();
    repeated.repeats = 2;
    repeated.splits.insert(repeated.splits.end(), {{{1, 3}, {0, 2}}, {{0, 2}, {1, 3}}});
    for (auto &model : repeated.models) {
        model.hyperparameters = models::regressorHyperparameters(model.name);
        for (int fold = 2; fold < 4; ++fold) {
            evaluation::FoldResult extra = model.folds[static_cast<std::size_t>(fold - 2)];
            extra.fold = fold;
            extra.repetition = 1;
            model.folds.push_back(extra);
        }
        model.repetitionSpread = metrics(0.75, 0.001);
    }
    const std::string text = io::jsonDocumentText(report::experimentJson(repeated, {/*withRows=*/true}));
    const auto read = report::readExperimentResult(io::parseJson(text, "project"), "project");
    QCOMPARE(read.repeats, 2);
    QCOMPARE(read.splits.size(), std::size_t{4});
    QCOMPARE(evaluation::splitsPerRepetition(read), std::size_t{2});
    QCOMPARE(read.models[0].folds[3].repetition, 1);
    QCOMPARE(read.models[0].folds[1].repetition, 0);
    QCOMPARE(read.models[1].repetitionSpread.rmse, 0.75);

    // A file whose repetitions do not divide its splits is refused with one line.
    io::Json edited = io::parseJson(text, "project");
    edited["repeats"] = 3;
    QVERIFY_THROWS_EXCEPTION(io::InputError, report::readExperimentResult(edited, "project"));
    edited["repeats"] = 1e300;
    QVERIFY_THROWS_EXCEPTION(io::InputError, report::readExperimentResult(edited, "project"));

    report::ComparisonContext header = context();
    header.repeats = 2;
    header.groupBy = "model";
    QCOMPARE(report::describeSplitting(header),
             std::string("2 × 2-fold cross-validation, folds grouped by model (seed 7)"));
    std::ostringstream json;
    report::writeJsonReport(json, header, repeated);
    const io::Json parsed = io::parseJson(json.str(), "report.json");
    QCOMPARE(io::toNumber(io::member(parsed, "repeats")), 2.0);
    QCOMPARE(io::toString(io::member(parsed, "group_by")), std::string("model"));
    QVERIFY(io::findMember(io::toArray(io::member(parsed, "models"))[0], "repetition_std"));
    std::ostringstream markdown;
    report::writeMarkdownReport(markdown, header, repeated);
    QVERIFY(markdown.str().find("## Spread over the repetitions") != std::string::npos);
    QVERIFY(markdown.str().find("28.00** ± 0.7500 |") != std::string::npos);
    // A plain cross-validation has no group: the member is null, not absent.
    const io::Json plain = io::parseJson(written(report::ReportFormat::Json), "report.json");
    QVERIFY(io::member(plain, "group_by").is_null());
    QCOMPARE(io::toNumber(io::member(plain, "repeats")), 1.0);
}

void TestComparisonReport::jsonParsesBackWithTheDocumentedSchema()
{
    const io::Json json = io::parseJson(written(report::ReportFormat::Json), "report.json");
    QCOMPARE(io::toString(io::member(json, "dataset")), std::string("jobs.csv"));
    QCOMPARE(io::toString(io::member(json, "target")), std::string("memory"));
    QCOMPARE(io::toNumber(io::member(json, "rows")), 4.0);
    QCOMPARE(io::toNumber(io::member(json, "folds")), 2.0);
    QCOMPARE(io::toNumber(io::member(json, "seed")), 7.0);
    QCOMPARE(io::toString(io::member(json, "best")), std::string("random_forest"));
    const auto &modelsJson = io::toArray(io::member(json, "models"));
    QCOMPARE(modelsJson.size(), std::size_t{2});
    for (const auto &entry : modelsJson) {
        QVERIFY(io::member(entry, "hyperparameters").is_object());
        QCOMPARE(io::toNumber(io::member(io::member(entry, "hyperparameters"), "depth")), 3.0);
        for (const char *key : {"metrics", "std"})
            for (const char *metric : {"mse", "rmse", "mae", "r2", "mape", "max_error", "under_rate", "over_alloc"})
                QVERIFY2(io::findMember(io::member(entry, key), metric), metric);
        QCOMPARE(io::toArray(io::member(entry, "per_fold")).size(), std::size_t{2});
        QVERIFY(io::findMember(entry, "train_seconds") && io::findMember(entry, "predict_seconds"));
    }
    QCOMPARE(io::toNumber(io::member(io::member(modelsJson[0], "metrics"), "rmse")), 28.0);
    QCOMPARE(io::toNumber(io::member(io::toArray(io::member(modelsJson[1], "per_fold"))[1], "rmse")), 39.0);
    const auto &significance = io::toArray(io::member(json, "significance"));
    QCOMPARE(significance.size(), std::size_t{1});
    QCOMPARE(io::toString(io::member(significance[0], "model")), std::string("decision_tree"));
    QCOMPARE(io::toString(io::member(significance[0], "versus")), std::string("random_forest"));
    QCOMPARE(io::toString(io::member(significance[0], "test")), std::string("paired_t"));
    QCOMPARE(io::toNumber(io::member(significance[0], "p_value")), 0.0123);
}

void TestComparisonReport::markdownHasThePaperTableWithTheBestInBold()
{
    const std::string markdown = written(report::ReportFormat::Markdown);
    QVERIFY(markdown.find("| Model | MSE (MiB²) | RMSE (MiB) | MAE (MiB) | R² |") != std::string::npos);
    QVERIFY(markdown.find("| Random forest | **784.0** | **28.00** | **16.80** | **0.99640** |") != std::string::npos);
    // The pipe in a title is escaped so the table keeps its columns.
    QVERIFY(markdown.find("| Decision \\| tree | 1444 | 38.00 | 22.80 | 0.99330 |") != std::string::npos);
    QVERIFY(markdown.find("0.0123 *") != std::string::npos);
}

void TestComparisonReport::csvHasOneRowPerModelAndFold()
{
    std::istringstream csv(written(report::ReportFormat::Csv));
    std::vector<std::string> lines;
    for (std::string line; std::getline(csv, line);)
        lines.push_back(line);
    // Header, then per model 2 folds + mean + std.
    QCOMPARE(lines.size(), std::size_t{1 + 2 * 4});
    QCOMPARE(lines[0], std::string("model,title,fold,mse,rmse,mae,r2,mape,median_rel_error,within_10pct,max_error,"
                                   "p95_error,under_rate,over_alloc,train_seconds,predict_seconds"));
    QVERIFY(lines[1].rfind("random_forest,Random forest,1,729,27,", 0) == 0);
    QVERIFY(lines[3].rfind("random_forest,Random forest,mean,784,28,", 0) == 0);
    QVERIFY(lines[5].rfind("decision_tree,Decision | tree,1,", 0) == 0);
}

void TestComparisonReport::htmlHoldsEveryModelAndItsCharts()
{
    const std::string html = written(report::ReportFormat::Html);
    QVERIFY(html.rfind("<!DOCTYPE html>", 0) == 0);
    QVERIFY(html.find("Random forest") != std::string::npos);
    QVERIFY(html.find("Decision | tree") != std::string::npos);
    // Five bar charts (MSE, RMSE, MAE, R², under-prediction), and per model a scatter plot
    // and a histogram of its residuals.
    std::size_t charts = 0;
    for (std::size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1))
        ++charts;
    QCOMPARE(charts, std::size_t{9});
    QVERIFY(html.find("↓ lower is better") != std::string::npos);
    // R² near 1 is drawn as 1 − R² on a log scale, lower being better there.
    QVERIFY(html.find("1 − R² (log scale)") != std::string::npos);
    QVERIFY(html.find("</html>") != std::string::npos);
    // Issue 25: the note over the scatter plots named a colour the workbench's charts, which
    // replace these in its exports, do not draw. The note names none; each chart keys its own.
    const std::size_t heading = html.find("<h2>Predicted against actual</h2>");
    QVERIFY(heading != std::string::npos);
    const std::string note = html.substr(heading, html.find("</p>", heading) - heading);
    for (const char *colour : {" red", " blue", " green", "dashed"})
        QVERIFY2(note.find(colour) == std::string::npos, note.c_str());
    QVERIFY(note.find("below the diagonal y = x are under-predictions") != std::string::npos);
}

void TestComparisonReport::formatFollowsTheExtension()
{
    QCOMPARE(report::reportFormatForPath("a/b.JSON"), report::ReportFormat::Json);
    QCOMPARE(report::reportFormatForPath("r.md"), report::ReportFormat::Markdown);
    QCOMPARE(report::reportFormatForPath("r.csv"), report::ReportFormat::Csv);
    QCOMPARE(report::reportFormatForPath("r.htm"), report::ReportFormat::Html);
    // Without the PDF writer that a build with Qt registers, .pdf is refused in one line that says why.
    try {
        report::reportFormatForPath("report.pdf");
        QFAIL("a .pdf report was accepted without a PDF writer");
    } catch (const io::InputError &error) {
        const std::string message = error.what();
        QVERIFY2(message.find("built with Qt") != std::string::npos, message.c_str());
        QVERIFY(message.find('\n') == std::string::npos);
    }
    QVERIFY_THROWS_EXCEPTION(io::InputError, report::reportFormatForPath("dir.json/report"));
}

void TestComparisonReport::saveWritesTheFileAtomically()
{
    QTemporaryDir directory;
    const std::string path = directory.filePath("report.json").toStdString();
    report::saveReport(path, context(), comparison());
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    QCOMPARE(io::toString(io::member(io::parseJson(text, path), "best")), std::string("random_forest"));
    QCOMPARE(QDir(directory.path()).entryList(QDir::Files).size(), 1); // no temporary file left behind
    QVERIFY_THROWS_EXCEPTION(io::InputError, report::saveReport(directory.filePath("missing/report.md").toStdString(),
                                                                context(), comparison()));
}

// Every report and the Compare page print the one cell core gives: the best model,
// the reported test's p with its stars, a note when the folds were too few, or a dash.
void TestComparisonReport::significanceFollowsOneRule()
{
    evaluation::ExperimentResult result = comparison();
    QCOMPARE(report::significanceText(result, "random_forest"), std::string("best"));
    QCOMPARE(report::significanceText(result, "decision_tree"), std::string("0.0123 *"));
    result.significance.front().pValue = 0.004;
    QCOMPARE(report::significanceText(result, "decision_tree"), std::string("0.0040 **"));
    result.significance.front().pValue = 0.2;
    QCOMPARE(report::significanceText(result, "decision_tree"), std::string("0.2000"));
    result.significance.front().reported = false; // as runExperiment leaves it below 5 pairs
    QCOMPARE(report::significanceText(result, "decision_tree"), std::string("needs ≥ 5 folds"));
    std::ostringstream markdown;
    report::writeMarkdownReport(markdown, context(), result);
    QVERIFY2(markdown.str().find("| needs ≥ 5 folds |") != std::string::npos, markdown.str().c_str());
    result.significance.clear();
    QCOMPARE(report::significanceText(result, "decision_tree"), std::string("–"));
}

QTEST_APPLESS_MAIN(TestComparisonReport)
#include "test_ComparisonReport.moc"
