// SPDX-License-Identifier: GPL-3.0-or-later
// `gpumem train --coverage` and `gpumem predict [--coverage]`: the calibration
// stored with every model type and the bounds predict serves from it (the
// refusals are in test_CalibrationRefusals).
#include "CalibrationJobs.h"
#include "CommandLineRun.h"
#include "DataTables.h"

#include "calibration/CalibratedFit.h"
#include "calibration/Calibration.h"
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "evaluation/Splits.h"
#include "io/AtomicFileWriter.h"
#include "models/ModelFolder.h"
#include "models/RegressorRegistry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>

namespace {

QByteArray readAll(const std::string &path)
{
    return gpumem::tests::fileBytes(QString::fromStdString(path));
}

// Returns the column named name of a prediction file, one text cell per row.
QList<QByteArray> column(const QByteArray &csv, const QByteArray &name)
{
    QList<QByteArray> lines = csv.split('\n');
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    const int index = static_cast<int>(lines.first().split(',').indexOf(name));
    QList<QByteArray> cells;
    if (index < 0)
        return cells;
    for (int line = 1; line < lines.size(); ++line)
        cells.push_back(lines[line].split(',')[index]);
    return cells;
}

QJsonObject lastJsonLine(const std::string &out)
{
    const QStringList lines = QString::fromStdString(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return QJsonDocument::fromJson(lines.last().toUtf8()).object();
}

} // namespace

class TestCalibrationCommandLine : public QObject
{
    Q_OBJECT

  private:
    const gpumem::tests::CalibrationFolder mFolder;

  private Q_SLOTS:
    void initTestCase() { QVERIFY(mFolder.isValid()); }

    void everyModelTypeStoresItsCalibration_data()
    {
        addColumns<QString>("model");
        for (const auto &name : gpumem::models::regressorNames())
            addRow(name.c_str(), QString::fromStdString(name));
    }

    void everyModelTypeStoresItsCalibration()
    {
        QFETCH(QString, model);
        const std::string name = model.toStdString();
        const std::string folder = mFolder.path(("every-" + name).c_str());
        std::vector<std::string> arguments = gpumem::tests::calibratedTrainArguments(mFolder.jobs, name, folder);
        const std::string trainPredictions = folder + ".train.csv";
        arguments.insert(arguments.end(), {"--predictions", trainPredictions});
        const Run train = runGpumem(arguments);
        QVERIFY2(train.exitCode == 0, train.err.c_str());
        QVERIFY2(train.out.find("upper bound: difficulty score, coverage 0.8") != std::string::npos, train.out.c_str());

        const QJsonObject calibration =
            gpumem::tests::CalibrationFolder::modelJson(folder).value("calibration").toObject();
        QCOMPARE(calibration.value("score").toString(), QStringLiteral("difficulty"));
        QCOMPARE(calibration.value("coverage").toDouble(), 0.8);
        QCOMPARE(calibration.value("calibration_rows").toInt(), 14); // round(45 · 0.3)

        // predict serves the stored level with the very bounds train computed.
        const std::string predictions = folder + ".csv";
        const Run predict = runGpumem({"predict", folder, mFolder.jobs, "--out", predictions});
        QVERIFY2(predict.exitCode == 0, predict.err.c_str());
        const QByteArray served = readAll(predictions);
        QVERIFY(served.startsWith("prediction,upper_bound,actual,error")); // extrapolated follows where ranges are kept
        QCOMPARE(column(served, "upper_bound"), column(readAll(trainPredictions), "upper_bound"));

        // Another level from the stored scores, without retraining: never above the stored one.
        const Run lower = runGpumem({"predict", folder, mFolder.jobs, "--coverage", "0.6"});
        QVERIFY2(lower.exitCode == 0, lower.err.c_str());
        const auto lowerBounds = column(QByteArray::fromStdString(lower.out), "upper_bound");
        const auto storedBounds = column(served, "upper_bound");
        QCOMPARE(lowerBounds.size(), 60);
        for (int row = 0; row < lowerBounds.size(); ++row)
            QVERIFY(lowerBounds[row].toDouble() <= storedBounds[row].toDouble());
    }

    void predictGivesTheBoundsOfTheInProcessCalibration()
    {
        const std::string folder = mFolder.path("in-process");
        const Run train = runGpumem({"train", mFolder.numericJobs, "--target", "memory", "--model", "ridge", "--out",
                                     folder, "--test-fraction", "0.25", "--coverage", "0.9", "--calibration-fraction",
                                     "0.4", "--calibration-score", "relative", "--seed", "7"});
        QVERIFY2(train.exitCode == 0, train.err.c_str());
        const Run predict = runGpumem({"predict", folder, mFolder.numericJobs, "--coverage", "0.85"});
        QVERIFY2(predict.exitCode == 0, predict.err.c_str());
        const auto served = column(QByteArray::fromStdString(predict.out), "upper_bound");

        // The same split, fit and calibration in-process.
        const gpumem::data::Table table = gpumem::data::loadTable(mFolder.numericJobs);
        gpumem::data::RoleRequest request;
        request.target = "memory";
        std::vector<std::string> warnings;
        const auto dataset = gpumem::data::Dataset::fromTable(table, gpumem::data::assignRoles(table, request),
                                                              gpumem::data::BadCellPolicy::Fail, warnings);
        const auto split = gpumem::evaluation::holdOutSplit(80, 0.25, 7);
        gpumem::models::ComputeSettings compute;
        compute.seed = 7;
        const auto model =
            gpumem::models::createRegressor("ridge", gpumem::models::regressorHyperparameters("ridge"), compute);
        gpumem::calibration::CalibrationSettings settings;
        settings.score = gpumem::calibration::Score::Relative;
        settings.coverage = 0.9;
        settings.fraction = 0.4;
        settings.seed = 7;
        settings.refit = true; // train keeps the model of every training row
        const auto fitted = gpumem::calibration::fitCalibrated(*model, dataset, split.train, settings);
        QVERIFY(fitted.refitted);
        QCOMPARE(fitted.rows.calibration.size(), std::size_t(24)); // round(60 · 0.4)
        const Eigen::VectorXd bounds = fitted.calibration->upperBounds(
            dataset.numericFeatures(), dataset.numericFeatureNames(), fitted.predicted, 0.85);
        QCOMPARE(served.size(), static_cast<int>(bounds.size()));
        for (int row = 0; row < served.size(); ++row)
            QCOMPARE(served[row].toDouble(), bounds[row]); // exact: the CSV holds round-trip text
    }

    // Regression: --coverage must take its calibration rows from the training rows;
    // the --test-fraction rows stay exactly the rows they are without it.
    void calibrationRowsNeverOverlapTestRows()
    {
        const std::string plain = mFolder.path("plain");
        const std::string calibrated = mFolder.path("calibrated");
        const Run withoutCoverage = runGpumem({"train", mFolder.jobs, "--target", "memory", "--model", "ridge", "--out",
                                               plain, "--test-fraction", "0.25", "--predictions", plain + ".csv"});
        QVERIFY2(withoutCoverage.exitCode == 0, withoutCoverage.err.c_str());
        std::vector<std::string> arguments = gpumem::tests::calibratedTrainArguments(mFolder.jobs, "ridge", calibrated);
        arguments.insert(arguments.end(), {"--predictions", calibrated + ".csv"});
        const Run withCoverage = runGpumem(arguments);
        QVERIFY2(withCoverage.exitCode == 0, withCoverage.err.c_str());
        const auto before = column(readAll(plain + ".csv"), "split");
        const auto after = column(readAll(calibrated + ".csv"), "split");
        QCOMPARE(before.size(), after.size());
        int calibrationRows = 0;
        for (int row = 0; row < before.size(); ++row) {
            QCOMPARE(after[row] == "test", before[row] == "test");
            calibrationRows += after[row] == "calibration" ? 1 : 0;
            if (after[row] == "calibration")
                QCOMPARE(before[row], QByteArray("train"));
        }
        QCOMPARE(calibrationRows, 14);
        QCOMPARE(static_cast<int>(std::count(after.begin(), after.end(), "test")), 15);
    }

    void trainReportsTheBoundOnTestRows()
    {
        std::vector<std::string> arguments =
            gpumem::tests::calibratedTrainArguments(mFolder.jobs, "random_forest", mFolder.path("report"));
        arguments.push_back("--json");
        const Run train = runGpumem(arguments);
        QVERIFY2(train.exitCode == 0, train.err.c_str());
        const QJsonObject summary = lastJsonLine(train.out);
        // The margins come from 14 calibration rows scored by a fit on the other 31; the model
        // kept then trains again on all 45 training rows.
        QCOMPARE(summary.value("train_rows").toInt(), 45);
        const QJsonObject calibration = summary.value("calibration").toObject();
        QCOMPARE(calibration.value("fit_rows").toInt(), 31);
        QCOMPARE(calibration.value("calibration_rows").toInt(), 14);
        const QJsonObject bound = calibration.value("test_bound").toObject();
        QCOMPARE(bound.value("rows").toInt(), 15);
        const double under = bound.value("under_prediction_rate").toDouble(-1);
        QVERIFY(under >= 0.0 && under <= 1.0);
        QVERIFY(bound.value("mean_over_allocation_mib").toDouble(-1) >= 0.0);
        QVERIFY(calibration.value("test_headroom_10_percent").toObject().contains("median_over_allocation_percent"));
        QVERIFY(std::isfinite(calibration.value("best_headroom_percent").toDouble(NAN)));
        const QJsonArray curve = calibration.value("test_trade_off").toArray();
        QCOMPARE(curve.size(), 101);
        QCOMPARE(curve.first().toObject().value("margin").toDouble(), 0.0);
        // Every job here needs about 1.4-1.6 GiB, so every bound fits each common GPU from 8 GiB up.
        const QJsonArray capacities = calibration.value("test_share_within_capacity").toArray();
        QCOMPARE(capacities.size(), 8);
        QCOMPARE(capacities.first().toObject().value("capacity_mib").toDouble(), 8192.0);
        QCOMPARE(capacities.last().toObject().value("capacity_mib").toDouble(), 141.0 * 1024.0);
        QCOMPARE(capacities.first().toObject().value("share").toDouble(), 1.0);

        const Run text = runGpumem(
            gpumem::tests::calibratedTrainArguments(mFolder.jobs, "random_forest", mFolder.path("report-text")));
        QVERIFY(text.out.find("test bound:") != std::string::npos);
        QVERIFY(text.out.find("test +10% headroom: under-predicts") != std::string::npos);
        QVERIFY(text.out.find("headroom (the smallest reaching 0.8 on the calibration rows): under-predicts") !=
                std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCalibrationCommandLine)
#include "test_CalibrationCommandLine.moc"
