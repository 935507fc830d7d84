// SPDX-License-Identifier: GPL-3.0-or-later
// The spread score: an ensemble's disagreement on a job scales its conformal
// margin. A hand-computed calibration, its stored form, its refusal for models
// without members, and a small ensemble calibrated, saved and served again.
#include "BaselineTestData.h"
#include "DataTables.h"
#include "ModelFolderEdits.h"
#include "RaisedInputError.h"
#include "SmallNetwork.h"
#include "calibration/CalibratedFit.h"
#include "calibration/Calibration.h"
#include "calibration/CalibrationJson.h"
#include "calibration/MemberSpread.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "models/NeuralNetworkRegressor.h"
#include "models/RegressorRegistry.h"
#include "prediction/Predictor.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace gpumem;
using calibration::Calibration;
using calibration::Score;

namespace {

// Rows 0-2 fit the model, rows 3-6 calibrate it. The fit rows' spreads have the
// median 0.02, the floor; row 4's spread 0.01 lies below it. Residual / scale,
// scale = predicted · max(spread, 0.02):
//   row 3: 10 / (1000 · 0.05) = 0.2     row 4: 80 / (2000 · 0.02) = 2
//   row 5: -10 / (500 · 0.1) = -0.2     row 6: 45 / (1000 · 0.03) = 1.5
struct HandComputedJobs
{
    Eigen::VectorXd predicted = tests::vectorOf({900, 1100, 1000, 1000, 2000, 500, 1000});
    Eigen::VectorXd actual = tests::vectorOf({905, 1090, 1000, 1010, 2080, 490, 1045});
    Eigen::VectorXd spread = tests::vectorOf({0.02, 0.04, 0.01, 0.05, 0.01, 0.1, 0.03});
    calibration::CalibrationRows rows{{0, 1, 2}, {3, 4, 5, 6}};
};

Calibration handComputedCalibration()
{
    const HandComputedJobs jobs;
    return Calibration::fit(Score::Spread, Eigen::MatrixXd(7, 0), {}, jobs.actual, jobs.predicted, jobs.rows, 0.5, 1,
                            jobs.spread);
}

// Three new jobs: one whose members agree closer than the floor, one predicted
// below 1 MiB, one where they disagree by 10%.
struct NewJobs
{
    Eigen::VectorXd predicted = tests::vectorOf({800, 0.5, 3000});
    Eigen::VectorXd spread = tests::vectorOf({0.005, 0.1, 0.1});
};

Eigen::VectorXd newJobBounds(const Calibration &calibrated, double coverage)
{
    const NewJobs jobs;
    return calibrated.upperBounds(Eigen::MatrixXd(3, 0), {}, jobs.predicted, coverage, jobs.spread);
}

// The small network of the model tests, trained 3 epochs, with members networks.
models::Hyperparameters smallEnsemble(int members)
{
    models::Hyperparameters hyperparameters = tests::smallNetworkHyperparameters(3);
    hyperparameters.set("ensemble", std::int64_t{members});
    return hyperparameters;
}

calibration::CalibrationSettings spreadSettings()
{
    calibration::CalibrationSettings settings;
    settings.score = Score::Spread;
    settings.coverage = 0.8;
    settings.fraction = 0.25; // 15 of 60 rows: ceil(16 · 0.8) = 13 scores needed
    settings.seed = 3;
    return settings;
}

void verifyMentions(const io::InputError &error, const char *expected)
{
    const std::string message = error.what();
    QVERIFY2(message.find(expected) != std::string::npos, message.c_str());
    QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
}

} // namespace

class TestSpreadCalibration : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void scoresResidualsByTheMembersSpread()
    {
        const Calibration calibrated = handComputedCalibration();
        QCOMPARE(calibrated.score(), Score::Spread);
        QCOMPARE(calibration::scoreName(Score::Spread), std::string_view("spread"));
        QCOMPARE(calibration::parseScore("spread"), Score::Spread);
        QCOMPARE(*calibrated.spreadFloor(), 0.02);
        // Only the calibration rows give scores; all of them do (none fit anything).
        QCOMPARE(calibrated.calibrationRowCount(), std::size_t(4));
        const std::vector<double> scores = calibrated.sortedScores();
        QCOMPARE(scores.size(), std::size_t(4));
        QCOMPARE(scores[0], -0.2);
        QCOMPARE(scores[1], 0.2);
        QCOMPARE(scores[2], 1.5);
        QCOMPARE(scores[3], 2.0);
        // ceil(5 · 0.5) = 3: the third score; ceil(5 · 0.75) = 4: the largest.
        QCOMPARE(calibrated.margin(0.5), 1.5);
        QCOMPARE(calibrated.margin(0.75), 2.0);
        QVERIFY_EXCEPTION_THROWN(calibrated.margin(0.9), io::InputError);

        // 800 + 1.5 · 800 · 0.02 (floored); 0.5 + 1.5 · 1 · 0.1 (1 MiB at least); 3000 + 1.5 · 3000 · 0.1.
        const Eigen::VectorXd bounds = newJobBounds(calibrated, 0.5);
        QCOMPARE(bounds[0], 824.0);
        QCOMPARE(bounds[1], 0.65);
        QCOMPARE(bounds[2], 3450.0);
    }

    // The floor comes from the fit rows alone, so the scores of the calibration rows
    // are a fixed function of each row: exchangeable with a new job's.
    void takesTheFloorFromTheFitRowsOnly()
    {
        HandComputedJobs jobs;
        jobs.spread[4] = 0.0; // a calibration row where the members agree exactly
        const Calibration calibrated = Calibration::fit(Score::Spread, Eigen::MatrixXd(7, 0), {}, jobs.actual,
                                                        jobs.predicted, jobs.rows, 0.5, 1, jobs.spread);
        QCOMPARE(*calibrated.spreadFloor(), 0.02);
        QCOMPARE(calibrated.sortedScores().back(), 2.0);

        jobs.spread.head(3).setZero(); // members that agree on every fit row still leave a positive floor
        QCOMPARE(calibration::fitSpreadFloor(jobs.spread, jobs.rows.fit), calibration::minimumSpreadFloor);

        jobs.spread[5] = std::nan("");
        QVERIFY_EXCEPTION_THROWN(Calibration::fit(Score::Spread, Eigen::MatrixXd(7, 0), {}, jobs.actual, jobs.predicted,
                                                  jobs.rows, 0.5, 1, jobs.spread),
                                 io::InputError);
    }

    void roundTripsThroughJsonBitForBit()
    {
        const Calibration original = handComputedCalibration();
        const io::Json stored(original);
        QCOMPARE(stored.at("spread").at("floor").get<double>(), 0.02);
        const Calibration restored =
            calibration::readCalibration(io::parseJson(io::jsonDocumentText(stored), "calibration"));
        QCOMPARE(restored.score(), Score::Spread);
        QCOMPARE(restored.coverage(), original.coverage());
        QVERIFY(restored.sortedScores() == original.sortedScores());
        QVERIFY(restored.spreadFloor() == original.spreadFloor());
        QVERIFY(!restored.difficulty());
        for (double coverage : {0.5, 0.75}) {
            const Eigen::VectorXd before = newJobBounds(original, coverage);
            const Eigen::VectorXd after = newJobBounds(restored, coverage);
            QVERIFY(std::memcmp(before.data(), after.data(), sizeof(double) * before.size()) == 0);
        }
    }

    void refusesMalformedSpreadMembers_data()
    {
        tests::addColumns<QString, QString>("calibration", "expected");
        const QString head = R"({"score":"spread","coverage":0.5,"calibration_rows":4,"scores":[-0.2,0.2,1.5,2])";
        tests::addRow("spread missing", head + "}", "lacks its \"spread\"");
        tests::addRow(
            "spread on relative",
            R"({"score":"relative","coverage":0.5,"calibration_rows":1,"scores":[1],"spread":{"floor":0.02}})",
            "only a spread calibration");
        tests::addRow("not an object", head + R"(,"spread":0.02})", "object");
        tests::addRow("floor missing", head + R"(,"spread":{}})", "floor");
        tests::addRow("floor zero", head + R"(,"spread":{"floor":0}})", "must be between");
        tests::addRow("floor negative", head + R"(,"spread":{"floor":-0.02}})", "must be between");
        tests::addRow("floor huge", head + R"(,"spread":{"floor":1e300}})", "must be between");
        tests::addRow("floor text", head + R"(,"spread":{"floor":"0.02"}})", "number");
        tests::addRow("floor null", head + R"(,"spread":{"floor":null}})", "number");
        tests::addRow("floor overflow", head + R"(,"spread":{"floor":1e999}})", "");
    }

    void refusesMalformedSpreadMembers()
    {
        QFETCH(QString, calibration);
        QFETCH(QString, expected);
        const auto error = tests::raisedInputError(
            [&] { calibration::readCalibration(io::parseJson(calibration.toStdString(), "calibration")); });
        QVERIFY2(std::string(error.what()) != "no error was raised", error.what());
        verifyMentions(error, expected.toStdString().c_str());
    }

    // Before any training: a model without members has no spread to calibrate on.
    void refusesModelsWithoutMembers()
    {
        const data::Dataset dataset = tests::baselineDataset(tests::linearJobsCsv(60, 5.0));
        const std::vector<Eigen::Index> rows = tests::firstRows(dataset.rowCount());
        models::NeuralNetworkRegressor single(smallEnsemble(1), tests::cpuSettings(1));
        verifyMentions(
            tests::raisedInputError([&] { calibration::fitCalibrated(single, dataset, rows, spreadSettings()); }),
            "single network");
        QVERIFY(!single.isFitted());
        auto ridge = models::createRegressor("ridge", models::regressorHyperparameters("ridge"));
        const auto error =
            tests::raisedInputError([&] { calibration::fitCalibrated(*ridge, dataset, rows, spreadSettings()); });
        verifyMentions(error, "ridge has no members");
        // Issue 52: what() names the parameter; `gpumem` prints --calibration-score.
        verifyMentions(error, "calibration_score difficulty");
        QVERIFY(!ridge->isFitted());
    }

    // A folder whose model.json pairs the spread score with a model without members
    // (edited, or another program's) is refused when loaded, naming the file.
    void refusesAStoredSpreadCalibrationOfASingleModel()
    {
        const data::Dataset dataset = tests::baselineDataset(tests::linearJobsCsv(60, 5.0));
        auto ridge = models::createRegressor("ridge", models::regressorHyperparameters("ridge"));
        calibration::CalibrationSettings settings = spreadSettings();
        settings.score = Score::Relative;
        const auto fit = calibration::fitCalibrated(*ridge, dataset, tests::firstRows(dataset.rowCount()), settings);
        QTemporaryDir folder;
        calibration::saveCalibratedModel(*ridge, fit.calibration, folder.path().toStdString());
        QJsonObject metadata = tests::readModelJson(folder.path());
        QJsonObject stored = metadata["calibration"].toObject();
        stored["score"] = "spread";
        stored["spread"] = QJsonObject{{"floor", 0.02}};
        metadata["calibration"] = stored;
        tests::writeModelJson(folder.path(), metadata);
        const auto error = tests::raisedInputError(
            [&] { prediction::loadSavedModel(folder.path().toStdString(), tests::cpuSettings(1)); });
        verifyMentions(error, "model.json");
        verifyMentions(error, "ridge has no members");
    }

    // Two small networks calibrated on a quarter of 60 rows, saved, loaded and
    // served again: the same bounds, each as wide as its members' disagreement.
    void servesTheSameBoundsAfterSavingAnEnsemble()
    {
        const std::string csv = tests::linearJobsCsv(60, 5.0);
        const data::Dataset dataset = tests::baselineDataset(csv);
        models::NeuralNetworkRegressor ensemble(smallEnsemble(2), tests::cpuSettings(7));
        const calibration::CalibratedFit fit =
            calibration::fitCalibrated(ensemble, dataset, tests::firstRows(dataset.rowCount()), spreadSettings());
        QVERIFY(fit.calibration.has_value());
        QVERIFY(fit.refitted);
        QCOMPARE(fit.memberSpread.size(), fit.predicted.size());
        QVERIFY((fit.memberSpread.array() > 0.0).all());
        QCOMPARE(fit.calibration->sortedScores().size(), std::size_t(15));
        const double floor = *fit.calibration->spreadFloor();
        QVERIFY(floor >= calibration::minimumSpreadFloor);
        const Eigen::VectorXd bounds = fit.calibration->upperBounds(
            dataset.numericFeatures(), dataset.numericFeatureNames(), fit.predicted, 0.8, fit.memberSpread);
        const double margin = fit.calibration->margin(0.8);
        for (Eigen::Index row = 0; row < bounds.size(); ++row) {
            const double scale = std::max(fit.predicted[row], 1.0) * std::max(fit.memberSpread[row], floor);
            QVERIFY(std::abs(bounds[row] - (fit.predicted[row] + margin * scale)) < 1e-9 * bounds[row]);
        }

        QTemporaryDir folder;
        calibration::saveCalibratedModel(ensemble, fit.calibration, folder.path().toStdString());
        const prediction::SavedModel saved =
            prediction::loadSavedModel(folder.path().toStdString(), tests::cpuSettings(7));
        QVERIFY(saved.calibration.has_value());
        QCOMPARE(saved.calibration->score(), Score::Spread);
        const data::Table table = data::loadTableFromText(csv, "jobs.csv");
        const prediction::Predictions served = prediction::predictTable(saved, table, data::BadCellPolicy::Fail, 0.8);
        QCOMPARE(served.upperBounds.size(), bounds.size());
        for (Eigen::Index row = 0; row < bounds.size(); ++row)
            QVERIFY2(std::abs(served.upperBounds[row] - bounds[row]) <= 1e-9 * bounds[row],
                     qPrintable(QString("row %1: %2 served, %3 calibrated")
                                    .arg(row)
                                    .arg(served.upperBounds[row])
                                    .arg(bounds[row])));
    }
};

QTEST_GUILESS_MAIN(TestSpreadCalibration)
#include "test_SpreadCalibration.moc"
