// SPDX-License-Identifier: GPL-3.0-or-later
// Calibrated upper bounds in comparisons: every fold calibrates inside its own
// training rows, the bound's metrics are recomputed independently from the
// out-of-fold bounds, parallel fits change nothing, and without a coverage the
// results carry no bound at all.
#include "CommandLineRun.h"
#include "DataTables.h"
#include "RaisedInputError.h"

#include "calibration/BoundMetrics.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "evaluation/Experiment.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "models/RegressorRegistry.h"
#include "report/ComparisonReport.h"
#include "report/ExperimentJson.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

using namespace gpumem;

namespace {

data::Dataset datasetOf(const data::Table &table, const std::string &target)
{
    data::RoleRequest request;
    request.target = target;
    std::vector<std::string> warnings;
    return data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
}

// y = 3·a − 2·b + 100 plus noise that grows with a: a model's misses depend on the job.
data::Dataset noisyDataset(int rows)
{
    std::string text = "a,b,y\n";
    for (int row = 0; row < rows; ++row) {
        const int a = row % 13;
        const int b = (row * 7) % 11;
        const double noise = (a + 1) * std::sin(row * 1.7);
        text += std::to_string(a) + ',' + std::to_string(b) + ',' + std::to_string(3 * a - 2 * b + 100 + noise) + '\n';
    }
    return datasetOf(data::loadTableFromText(text, "noisy.csv"), "y");
}

data::Dataset jobsDataset()
{
    return datasetOf(data::loadTable(dataFile("jobs_training.csv")), "memory_mib");
}

evaluation::ExperimentSettings calibratedSettings(std::vector<std::string> names, int folds, double coverage,
                                                  calibration::Score score)
{
    evaluation::ExperimentSettings settings;
    for (const auto &name : names)
        settings.models.push_back({name, models::regressorHyperparameters(name)});
    settings.folds = folds;
    calibration::CalibrationSettings calibration;
    calibration.coverage = coverage;
    calibration.fraction = 0.5;
    calibration.score = score;
    calibration.seed = 7;
    settings.calibration = calibration;
    return settings;
}

// Returns a CSV file's rows as cells (the files read here quote nothing).
std::vector<std::vector<std::string>> csvRows(const std::string &path)
{
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream fields(line);
        std::string cell;
        while (std::getline(fields, cell, ','))
            cells.push_back(cell);
        if (!line.empty() && line.back() == ',')
            cells.emplace_back();
        rows.push_back(cells);
    }
    return rows;
}

std::size_t columnNamed(const std::vector<std::string> &header, const std::string &name)
{
    const auto found = std::find(header.begin(), header.end(), name);
    return static_cast<std::size_t>(found - header.begin());
}

const std::vector<std::string> quickCompare{"compare",  dataFile("jobs_training.csv"), "--target", "memory_mib",
                                            "--models", "ridge,decision_tree",         "--folds",  "2"};

std::string fileText(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A calibrated comparison of ridge and a decision tree on the job fixture.
evaluation::ExperimentResult calibratedJobs()
{
    return evaluation::runExperiment(
        jobsDataset(), calibratedSettings({"ridge", "decision_tree"}, 2, 0.8, calibration::Score::Difficulty));
}

} // namespace

class TestCompareCoverage : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // Regression: a fold's calibration rows must come from its training rows only;
    // calibrating on test rows would make the reported coverage a promise kept on paper.
    void calibrationRowsNeverOverlapTheTestRows()
    {
        const data::Dataset dataset = noisyDataset(120);
        const auto result = evaluation::runExperiment(
            dataset, calibratedSettings({"ridge", "decision_tree"}, 3, 0.9, calibration::Score::Absolute));
        QCOMPARE(result.models.size(), std::size_t{2});
        for (const auto &model : result.models) {
            QVERIFY(model.bound.has_value());
            for (const auto &fold : model.folds) {
                QVERIFY(fold.bound.has_value());
                const auto &split = result.splits[static_cast<std::size_t>(fold.fold)];
                const std::set<Eigen::Index> test(split.test.begin(), split.test.end());
                const std::set<Eigen::Index> train(split.train.begin(), split.train.end());
                QCOMPARE(fold.bound->calibrationRows.size(), std::size_t{40}); // half of 80 training rows
                QCOMPARE(fold.bound->calibrationRowCount, std::size_t{40});
                for (Eigen::Index row : fold.bound->calibrationRows) {
                    QVERIFY(test.count(row) == 0);
                    QVERIFY(train.count(row) == 1);
                }
            }
        }
    }

    // The fold's bound metrics, recomputed here from the out-of-fold bounds and
    // predictions with plain loops, match what the runner reported.
    void boundMetricsMatchTheOutOfFoldBounds()
    {
        const data::Dataset dataset = noisyDataset(120);
        const auto result =
            evaluation::runExperiment(dataset, calibratedSettings({"ridge"}, 3, 0.9, calibration::Score::Relative));
        const auto &model = result.models.front();
        double meanUnder = 0.0;
        double meanWaste = 0.0;
        double meanTenPercentWaste = 0.0;
        for (const auto &fold : model.folds) {
            const auto &split = result.splits[static_cast<std::size_t>(fold.fold)];
            int under = 0;
            double waste = 0.0;
            double tenPercentWaste = 0.0;
            for (Eigen::Index row : split.test) {
                const double actual = dataset.target()[row];
                const double bound = model.bound->upperBounds[row];
                QVERIFY(std::isfinite(bound));
                QVERIFY(bound >= model.predictions[row] - 1e-9); // relative margins are not negative here
                under += actual > bound ? 1 : 0;
                waste += std::max(bound - actual, 0.0);
                tenPercentWaste += std::max(model.predictions[row] * 1.1 - actual, 0.0);
            }
            const auto n = static_cast<double>(split.test.size());
            QCOMPARE(fold.bound->bound.rows, split.test.size());
            QVERIFY(std::abs(fold.bound->bound.underPredictionRate - under / n) < 1e-12);
            QVERIFY(std::abs(fold.bound->bound.meanOverAllocation - waste / n) < 1e-9);
            QVERIFY(std::abs(fold.bound->tenPercent.meanOverAllocation - tenPercentWaste / n) < 1e-9);
            // The curve sweeps from no margin (the point prediction) to the largest score.
            QCOMPARE(fold.bound->curve.size(), std::size_t(evaluation::tradeOffPointCount));
            QCOMPARE(fold.bound->curve.front().margin, 0.0);
            QVERIFY(std::abs(fold.bound->curve.front().underPredictionRate - fold.metrics.underRate) < 1e-9);
            QVERIFY(fold.bound->curve.back().underPredictionRate <= fold.bound->curve.front().underPredictionRate);
            meanUnder += fold.bound->bound.underPredictionRate / 3.0;
            meanWaste += fold.bound->bound.meanOverAllocation / 3.0;
            meanTenPercentWaste += fold.bound->tenPercent.meanOverAllocation / 3.0;
        }
        QVERIFY(std::abs(model.bound->bound.underPredictionRate - meanUnder) < 1e-12);
        QVERIFY(std::abs(model.bound->bound.meanOverAllocation - meanWaste) < 1e-9);
        QVERIFY(std::abs(model.bound->tenPercent.meanOverAllocation - meanTenPercentWaste) < 1e-9);
        QCOMPARE(model.bound->bound.rows, std::size_t{120});
        QCOMPARE(model.bound->curve.size(), std::size_t(evaluation::tradeOffPointCount));
        // Every row is tested once in k-fold cross-validation.
        QVERIFY(model.bound->upperBounds.allFinite());
    }

    // On rows whose noise grows with the job, every score keeps its promise on
    // the test rows (up to sampling slack) and beats no margin at all.
    void boundHoldsItsCoverageOnTheTestRows()
    {
        const data::Dataset dataset = noisyDataset(900);
        for (const auto score :
             {calibration::Score::Absolute, calibration::Score::Relative, calibration::Score::Difficulty}) {
            const auto result = evaluation::runExperiment(dataset, calibratedSettings({"ridge"}, 3, 0.9, score));
            const auto &model = result.models.front();
            const QByteArray name(calibration::scoreName(score).data());
            QVERIFY2(model.bound->bound.underPredictionRate <= 0.1 + 0.04, name);
            QVERIFY2(model.bound->bound.underPredictionRate < model.mean.underRate, name);
            QVERIFY2(model.bound->bound.meanOverAllocation > model.mean.overAllocation, name);
        }
    }

    // The fixed-headroom reference (its percentage chosen on the calibration
    // rows) is scored on the fold's test rows: applied here to the out-of-fold
    // predictions, it gives the reported metrics.
    void fixedHeadroomIsScoredOnTheTestRows()
    {
        const data::Dataset dataset = noisyDataset(120);
        const auto result =
            evaluation::runExperiment(dataset, calibratedSettings({"ridge"}, 3, 0.9, calibration::Score::Absolute));
        const auto &model = result.models.front();
        for (const auto &fold : model.folds) {
            QVERIFY(std::isfinite(fold.bound->fixedHeadroomPercent));
            const auto &split = result.splits[static_cast<std::size_t>(fold.fold)];
            const Eigen::VectorXd bounds =
                calibration::headroomBounds(model.predictions, fold.bound->fixedHeadroomPercent);
            const auto recomputed = calibration::boundMetrics(dataset.target(), bounds, split.test);
            QVERIFY(std::abs(recomputed.meanOverAllocation - fold.bound->fixedHeadroom.meanOverAllocation) < 1e-9);
            QCOMPARE(recomputed.underPredictionRate, fold.bound->fixedHeadroom.underPredictionRate);
        }
    }

    // Calibrated runs on the real fixture, with the difficulty score, give the
    // same results whatever the number of parallel fits.
    void parallelFitsChangeNoBound()
    {
        const data::Dataset dataset = jobsDataset();
        auto settings = calibratedSettings({"ridge", "decision_tree"}, 2, 0.8, calibration::Score::Difficulty);
        const auto serial = evaluation::runExperiment(dataset, settings);
        settings.parallelFits = 4;
        const auto parallel = evaluation::runExperiment(dataset, settings);
        QCOMPARE(serial.models.size(), parallel.models.size());
        for (std::size_t m = 0; m < serial.models.size(); ++m) {
            const auto &left = *serial.models[m].bound;
            const auto &right = *parallel.models[m].bound;
            QCOMPARE(left.bound.underPredictionRate, right.bound.underPredictionRate);
            QCOMPARE(left.bound.meanOverAllocation, right.bound.meanOverAllocation);
            QCOMPARE(left.fixedHeadroomPercent, right.fixedHeadroomPercent);
            for (Eigen::Index row = 0; row < left.upperBounds.size(); ++row)
                QCOMPARE(left.upperBounds[row], right.upperBounds[row]);
            for (std::size_t point = 0; point < left.curve.size(); ++point)
                QCOMPARE(left.curve[point].meanOverAllocation, right.curve[point].meanOverAllocation);
        }
    }

    // Without a coverage nothing is calibrated: no bound anywhere and the point
    // predictions come from a fit on every training row, as before.
    void noCoverageMeansNoBound()
    {
        const data::Dataset dataset = noisyDataset(60);
        evaluation::ExperimentSettings settings;
        settings.models.push_back({"ridge", models::regressorHyperparameters("ridge")});
        settings.folds = 3;
        const auto result = evaluation::runExperiment(dataset, settings);
        QVERIFY(!result.calibration.has_value());
        QVERIFY(!result.models.front().bound.has_value());
        for (const auto &fold : result.models.front().folds)
            QVERIFY(!fold.bound.has_value());
    }

    // A coverage the fold's calibration rows cannot serve fails that model in one line.
    void tooFewCalibrationRowsFailInOneLine()
    {
        const data::Dataset dataset = noisyDataset(30);
        auto settings = calibratedSettings({"ridge"}, 3, 0.99, calibration::Score::Absolute);
        const auto error = gpumem::tests::raisedInputError([&] { evaluation::runExperiment(dataset, settings); });
        QVERIFY2(error.message().find("calibration rows") != std::string::npos, error.message().c_str());
        QVERIFY(error.message().find('\n') == std::string::npos);
        settings.calibration->coverage = 1.0;
        QVERIFY_EXCEPTION_THROWN(evaluation::runExperiment(dataset, settings), io::InputError);
    }

    void compareRefusesBadValuesInOneLine_data()
    {
        addColumns<QStringList, QString>("options", "expected");
        addRow("coverage 0", QStringList{"--coverage", "0"}, "--coverage takes a number strictly between");
        addRow("coverage 1", QStringList{"--coverage", "1"}, "--coverage takes a number strictly between");
        addRow("coverage 1.5", QStringList{"--coverage", "1.5"}, "not '1.5'");
        addRow("coverage NaN", QStringList{"--coverage", "nan"}, "not 'nan'");
        addRow("fraction 0", QStringList{"--coverage", "0.8", "--calibration-fraction", "0"},
               "--calibration-fraction must be above 0");
        addRow("fraction 1", QStringList{"--coverage", "0.8", "--calibration-fraction", "1"}, "--calibration-fraction");
        addRow("unknown score", QStringList{"--coverage", "0.8", "--calibration-score", "log"},
               "unknown calibration score 'log'");
        addRow("score without coverage", QStringList{"--calibration-score", "relative"},
               "--calibration-score takes effect only with --coverage");
        addRow("coverage the folds cannot serve", QStringList{"--coverage", "0.99"}, "needs at least");
    }

    // Every refusal is one line, before any model is fitted.
    void compareRefusesBadValuesInOneLine()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, expected);
        std::vector<std::string> arguments = quickCompare;
        for (const auto &option : options)
            arguments.push_back(option.toStdString());
        const tests::Run run = tests::runGpumem(arguments);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.empty(), run.out.c_str());
        QVERIFY2(run.err.rfind("gpumem compare: ", 0) == 0, run.err.c_str());
        QVERIFY2(run.err.find(expected.toStdString()) != std::string::npos, run.err.c_str());
        QCOMPARE(std::count(run.err.begin(), run.err.end(), '\n'), std::ptrdiff_t{1});
        QVERIFY2(run.err.find("fold 1/2") == std::string::npos, run.err.c_str()); // refused before fitting
    }

    // The printed table gains the bound's columns only when a coverage is asked for.
    void tableShowsTheBoundOnlyWithCoverage()
    {
        const tests::Run plain = tests::runGpumem(quickCompare);
        QCOMPARE(plain.exitCode, 0);
        QVERIFY2(plain.out.find("bound under") == std::string::npos, plain.out.c_str());
        QVERIFY2(plain.out.find("+10% over MiB") == std::string::npos, plain.out.c_str());
        const tests::Run bounded =
            tests::runGpumem(withArguments(quickCompare, {"--coverage", "0.8", "--calibration-fraction", "0.5"}));
        QCOMPARE(bounded.exitCode, 0);
        for (const char *text : {"bound under", "bound over MiB", "+10% over MiB", "coverage 0.8 (difficulty score)"})
            QVERIFY2(bounded.out.find(text) != std::string::npos, bounded.out.c_str());
        // The progress lines on stderr give each fold's bound too, and only then.
        QVERIFY2(bounded.err.find("ridge fold 1/2: RMSE") != std::string::npos, bounded.err.c_str());
        QVERIFY2(bounded.err.find("  bound under ") != std::string::npos, bounded.err.c_str());
        QVERIFY2(plain.err.find("bound under") == std::string::npos, plain.err.c_str());
    }

    // A model trained with `train --coverage` on a hold-out split gives the test
    // rows the same upper bounds as compare's fold on the same seeded split.
    void trainAndCompareGiveTheSameBounds()
    {
        QTemporaryDir scratch;
        QVERIFY(scratch.isValid());
        const std::string base = scratch.path().toStdString();
        const std::vector<std::string> common{"--target",
                                              "memory_mib",
                                              "--test-fraction",
                                              "0.25",
                                              "--coverage",
                                              "0.8",
                                              "--calibration-fraction",
                                              "0.5",
                                              "--calibration-score",
                                              "relative",
                                              "--seed",
                                              "11"};
        const tests::Run train =
            tests::runGpumem(withArguments({"train", dataFile("jobs_training.csv"), "--model", "ridge", "--out",
                                            base + "/model", "--predictions", base + "/train.csv"},
                                           common));
        QVERIFY2(train.exitCode == 0, train.err.c_str());
        const tests::Run compare = tests::runGpumem(withArguments(
            {"compare", dataFile("jobs_training.csv"), "--models", "ridge", "--predictions", base + "/compare.csv"},
            common));
        QVERIFY2(compare.exitCode == 0, compare.err.c_str());
        const auto trained = csvRows(base + "/train.csv");
        const auto compared = csvRows(base + "/compare.csv");
        QCOMPARE(trained.size(), std::size_t{81});
        QCOMPARE(compared.size(), trained.size());
        const std::size_t split = columnNamed(trained.front(), "split");
        const std::size_t trainedBound = columnNamed(trained.front(), "upper_bound");
        const std::size_t comparedBound = columnNamed(compared.front(), "upper_bound_ridge");
        QVERIFY(comparedBound < compared.front().size());
        int testRows = 0;
        for (std::size_t row = 1; row < trained.size(); ++row) {
            const bool test = trained[row][split] == "test";
            QCOMPARE(compared[row][0], std::string(test ? "1" : "train"));
            if (!test) {
                QVERIFY(compared[row][comparedBound].empty());
                continue;
            }
            ++testRows;
            const double expected = std::stod(trained[row][trainedBound]);
            QVERIFY2(std::abs(std::stod(compared[row][comparedBound]) - expected) <= 1e-9 * std::abs(expected),
                     compared[row][comparedBound].c_str());
        }
        QCOMPARE(testRows, 20);
    }

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

QTEST_APPLESS_MAIN(TestCompareCoverage)
#include "test_CompareCoverage.moc"
