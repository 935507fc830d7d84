// SPDX-License-Identifier: GPL-3.0-or-later
// A calibration beside its model: the rows it calibrates on, the refit on every
// training row, and its stored form in the model folder.
#include "DataTables.h"
#include "RaisedInputError.h"
#include "SyntheticJobs.h"
#include "calibration/CalibratedFit.h"
#include "calibration/Calibration.h"
#include "calibration/CalibrationJson.h"
#include "calibration/CalibrationRows.h"
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/SeededRandom.h"
#include "data/TableLoader.h"
#include "evaluation/Splits.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "io/JsonWriter.h"
#include "models/ModelFolder.h"
#include "models/RegressorRegistry.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

using namespace gpumem;
using calibration::Calibration, calibration::Score, tests::fittedCalibration, tests::rowRange, tests::SyntheticJobs,
    tests::syntheticJobs;

namespace {

std::string written(const Calibration &calibrated)
{
    return io::jsonDocumentText(io::Json(calibrated));
}

Calibration calibrationFrom(const std::string &text)
{
    return calibration::readCalibration(io::parseJson(text, "calibration"));
}

} // namespace

class TestCalibratedFit : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // Regression: calibration rows must come from the training rows alone, never
    // from the rows a hold-out or a compare fold keeps for testing.
    void calibrationRowsNeverOverlapTestRows()
    {
        for (std::uint64_t seed : {1u, 42u, 7u}) {
            const evaluation::Split split = evaluation::holdOutSplit(1000, 0.2, seed);
            const auto rows = calibration::splitCalibrationRows(split.train, 0.25, seed);
            const std::set<Eigen::Index> test(split.test.begin(), split.test.end());
            for (Eigen::Index row : rows.calibration)
                QVERIFY(test.count(row) == 0);
            for (Eigen::Index row : rows.fit)
                QVERIFY(test.count(row) == 0);
            QCOMPARE(rows.calibration.size(), std::size_t(200));
            std::vector<Eigen::Index> together = rows.fit;
            together.insert(together.end(), rows.calibration.begin(), rows.calibration.end());
            std::sort(together.begin(), together.end());
            QVERIFY(together == split.train); // a partition of the training rows
            QVERIFY(std::is_sorted(rows.calibration.begin(), rows.calibration.end()));
        }
        // Folds too: each fold's calibration stays inside that fold's training rows.
        for (const auto &fold : evaluation::kFoldSplits(500, 5, 42)) {
            const auto rows = calibration::splitCalibrationRows(fold.train, 0.2, 42);
            for (Eigen::Index row : rows.calibration)
                QVERIFY(!std::binary_search(fold.test.begin(), fold.test.end(), row));
        }
        QVERIFY_EXCEPTION_THROWN(calibration::splitCalibrationRows({1, 2, 3}, 0.0, 1), io::InputError);
        QVERIFY_EXCEPTION_THROWN(calibration::splitCalibrationRows({1}, 0.5, 1), io::InputError);
        QCOMPARE(calibration::splitCalibrationRows({4, 9}, 0.9, 1).calibration.size(), std::size_t(1));
    }

    void roundTripsThroughJsonBitForBit_data()
    {
        addColumns<int>("score");
        addRow("absolute", static_cast<int>(Score::Absolute));
        addRow("relative", static_cast<int>(Score::Relative));
        addRow("difficulty", static_cast<int>(Score::Difficulty));
    }

    void roundTripsThroughJsonBitForBit()
    {
        QFETCH(int, score);
        const Calibration original = fittedCalibration(static_cast<Score>(score));
        const Calibration restored = calibrationFrom(written(original));
        QCOMPARE(restored.score(), original.score());
        QCOMPARE(restored.coverage(), original.coverage());
        QCOMPARE(restored.calibrationRowCount(), original.calibrationRowCount());
        QVERIFY(restored.sortedScores() == original.sortedScores());
        QCOMPARE(restored.difficulty().has_value(), original.difficulty().has_value());
        if (original.difficulty())
            QVERIFY(*restored.difficulty() == *original.difficulty());
        const SyntheticJobs jobs = syntheticJobs(300, true, 99);
        for (double coverage : {0.8, 0.9, 0.95}) {
            const Eigen::VectorXd before = original.upperBounds(jobs.features, jobs.names, jobs.predicted, coverage);
            const Eigen::VectorXd after = restored.upperBounds(jobs.features, jobs.names, jobs.predicted, coverage);
            for (Eigen::Index row = 0; row < before.size(); ++row)
                QVERIFY(std::memcmp(&before[row], &after[row], sizeof(double)) == 0);
        }
    }

    void refusesHostileStoredCalibrations_data()
    {
        addColumns<QString, QString>("member", "expected");
        const QString difficulty = R"("difficulty":{"floor":1,"columns":["a"],"means":[0,0],"deviations":[1,1],)"
                                   R"("coefficients":[0,0,0],"lowest":-1,"highest":1})";
        addRow("unsorted", R"({"score":"absolute","coverage":0.9,"calibration_rows":3,"scores":[3,1,2]})",
               "ascending order");
        addRow("NaN text", R"({"score":"absolute","coverage":0.9,"calibration_rows":2,"scores":[1,"NaN"]})",
               "expected a number");
        addRow("null score", R"({"score":"absolute","coverage":0.9,"calibration_rows":2,"scores":[1,null]})",
               "expected a number");
        addRow("overflow", R"({"score":"absolute","coverage":0.9,"calibration_rows":2,"scores":[1,1e999]})", "");
        addRow("empty", R"({"score":"absolute","coverage":0.9,"calibration_rows":0,"scores":[]})", "must not be empty");
        addRow("coverage 1.5", R"({"score":"absolute","coverage":1.5,"calibration_rows":1,"scores":[1]})",
               "strictly between 0 and 1");
        addRow("unknown score", R"({"score":"magic","coverage":0.9,"calibration_rows":1,"scores":[1]})",
               "unknown calibration score");
        addRow("rows below scores", R"({"score":"absolute","coverage":0.9,"calibration_rows":1,"scores":[1,2]})",
               "calibration_rows");
        addRow("fractional rows", R"({"score":"absolute","coverage":0.9,"calibration_rows":2.5,"scores":[1,2]})",
               "whole number");
        addRow("difficulty missing", R"({"score":"difficulty","coverage":0.9,"calibration_rows":1,"scores":[1]})",
               "lacks");
        addRow("difficulty on absolute",
               R"({"score":"absolute","coverage":0.9,"calibration_rows":1,"scores":[1],)" + difficulty + "}",
               "only a difficulty calibration");
        // A difficulty calibration whose difficulty member has one part replaced.
        const auto addDifficultyRow = [&difficulty](const char *name, const QString &part, const QString &replacement,
                                                    const char *expected) {
            QString changed = difficulty;
            changed.replace(part, replacement);
            addRow(name, R"({"score":"difficulty","coverage":0.9,"calibration_rows":1,"scores":[1],)" + changed + "}",
                   expected);
        };
        addDifficultyRow("coefficient count", R"("coefficients":[0,0,0])", R"("coefficients":[0,0])", "must hold");
        addDifficultyRow("zero deviation", R"("deviations":[1,1])", R"("deviations":[1,0])", "positive");
        addDifficultyRow("huge clamp", R"("highest":1)", R"("highest":1e6)", "within");
        addDifficultyRow("reversed clamp", R"("lowest":-1)", R"("lowest":2)", "ordered");
    }

    void refusesHostileStoredCalibrations()
    {
        QFETCH(QString, member);
        QFETCH(QString, expected);
        // Not raisedInputError: the overflow row expects any message at all, so
        // only QFAIL tells an accepted member from a refused one.
        try {
            calibrationFrom(member.toStdString());
            QFAIL("accepted");
        } catch (const io::InputError &error) {
            const std::string message = error.what();
            QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
            QVERIFY(message.find('\n') == std::string::npos);
        }
    }

    void refusesAHugeScoreArray()
    {
        // One more score than a calibration may hold is refused by its count, before it is kept.
        std::string text = R"({"score":"absolute","coverage":0.9,"calibration_rows":1,"scores":[)";
        text.reserve(text.size() + 2 * (calibration::maxCalibrationScores + 1) + 2);
        for (std::size_t i = 0; i <= calibration::maxCalibrationScores; ++i)
            text += i == 0 ? "0" : ",0";
        text += "]}";
        const auto error = gpumem::tests::raisedInputError([&] { calibrationFrom(text); });
        QVERIFY2(std::string(error.what()).find("more than the") != std::string::npos, error.what());
    }

    void savesTheCalibrationOnlyWhenGiven()
    {
        // The calibration rides in the same atomic save as any model, and only when asked for.
        QTemporaryDir folder;
        const std::string csv = "x,memory\n1,10\n2,20\n3,31\n4,39\n";
        const std::string path = folder.filePath("jobs.csv").toStdString();
        {
            std::ofstream out(path);
            out << csv;
        }
        const data::Table table = data::loadTable(path);
        data::RoleRequest request;
        request.target = "memory";
        std::vector<std::string> warnings;
        const auto dataset =
            data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
        auto model = models::createRegressor("ridge", models::regressorHyperparameters("ridge"));
        model->fit(dataset, {0, 1, 2, 3});
        const Calibration calibrated = fittedCalibration(Score::Relative);
        const std::string inside = folder.filePath("inside").toStdString();
        const std::string outside = folder.filePath("outside").toStdString();
        model->save(inside, {{"calibration", calibrated}});
        model->save(outside);
        const auto stored = calibration::readStoredCalibration(models::readModelMetadata(inside), inside);
        QVERIFY(stored.has_value());
        QVERIFY(stored->sortedScores() == calibrated.sortedScores());
        QVERIFY(!calibration::readStoredCalibration(models::readModelMetadata(outside), outside).has_value());
        QVERIFY(models::loadRegressor(inside)->isFitted()); // the model reads its folder as before
        QVERIFY_EXCEPTION_THROWN(model->save(outside, {{"files", 1}}), std::invalid_argument);
    }

    // With refit the kept model is the one fitted on every training row, exactly as
    // without a bound; the calibration still scored the first fit, which never saw its rows.
    void refitKeepsThePointModelOfAllTheRows()
    {
        std::string csv = "x,z,memory\n";
        data::SeededRandom random(5);
        for (int row = 0; row < 60; ++row) {
            const double x = random.unit() * 100.0;
            const double z = random.unit() * 10.0;
            csv += std::to_string(x) + ',' + std::to_string(z) + ',' +
                   std::to_string(3 * x + z * z + 5 * random.unit()) + '\n';
        }
        const data::Table table = data::loadTableFromText(csv, "jobs.csv");
        data::RoleRequest request;
        request.target = "memory";
        std::vector<std::string> warnings;
        const auto dataset =
            data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
        const std::vector<Eigen::Index> rows = rowRange(0, 60);
        const auto tree = [] {
            return models::createRegressor("decision_tree", models::regressorHyperparameters("decision_tree"));
        };
        calibration::CalibrationSettings settings;
        settings.score = Score::Relative;
        settings.coverage = 0.8;
        settings.refit = true;
        auto model = tree();
        const calibration::CalibratedFit fit = calibration::fitCalibrated(*model, dataset, rows, settings);
        QVERIFY(fit.refitted);
        QVERIFY(fit.calibration.has_value());

        auto everyRow = tree();
        everyRow->fit(dataset, rows);
        QCOMPARE(fit.predicted, everyRow->predict(dataset));
        QCOMPARE(model->predict(dataset), everyRow->predict(dataset));
        auto fitRows = tree();
        fitRows->fit(dataset, fit.rows.fit);
        QCOMPARE(fit.calibrationPredicted, fitRows->predict(dataset));
        QVERIFY(fit.calibrationPredicted != fit.predicted);

        settings.refit = false;
        auto once = tree();
        const calibration::CalibratedFit plain = calibration::fitCalibrated(*once, dataset, rows, settings);
        QVERIFY(!plain.refitted);
        QCOMPARE(plain.predicted, fit.calibrationPredicted);
        // The margins come from the same calibration rows and first fit either way.
        QCOMPARE(plain.calibration->sortedScores(), fit.calibration->sortedScores());
    }
};

QTEST_GUILESS_MAIN(TestCalibratedFit)
#include "test_CalibratedFit.moc"
