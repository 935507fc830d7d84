// SPDX-License-Identifier: GPL-3.0-or-later
// `gpumem train --coverage` and `gpumem predict [--coverage]`: the calibration
// stored with every model type, the bounds predict serves from it, and the
// one-line refusals of bad levels and hostile stored calibrations.
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

// The row-th generated job: width, batch and depth cycle on their own, and the
// noise (MiB) grows with depth.
struct GeneratedJob
{
    int width;
    int batch;
    int depth;
    double noise;
};

GeneratedJob generatedJob(int row)
{
    const int depth = 1 + row % 3;
    return {16 << (row % 5), 8 << (row % 4), depth, static_cast<double>(((row * 37) % 11 - 5) * depth)};
}

// 60 jobs in the GPUMemNet layout whose memory grows with width, depth and batch,
// so every model type can fit them.
std::string jobsCsv()
{
    std::string csv = "Activations-Params,Batch Size,Depth,memory\n";
    for (int row = 0; row < 60; ++row) {
        const auto [width, batch, depth, noise] = generatedJob(row);
        std::string layers;
        for (int layer = 0; layer < depth; ++layer)
            layers += std::string(layer ? ", " : "") + "('linear', " + std::to_string(width) + ", " +
                      std::to_string(width * width + width) + "), ('ReLU', " + std::to_string(width) + ", 0)";
        const double memory =
            1400.0 + depth * width * width * 16.0 * 50.0 / (1 << 20) + batch * width * depth * 0.01 + noise;
        csv += "\"[" + layers + "]\"," + std::to_string(batch) + "," + std::to_string(depth) + "," +
               std::to_string(memory) + "\n";
    }
    return csv;
}

// The same kind of jobs with plain numeric columns only, for the in-process comparison.
std::string numericJobsCsv()
{
    std::string csv = "width,batch,depth,memory\n";
    for (int row = 0; row < 80; ++row) {
        const auto [width, batch, depth, noise] = generatedJob(row);
        csv += std::to_string(width) + "," + std::to_string(batch) + "," + std::to_string(depth) + "," +
               std::to_string(1400.0 + width * 0.5 + batch * depth * 0.2 + noise) + "\n";
    }
    return csv;
}

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

bool isOneLine(const std::string &text)
{
    return !text.empty() && text.find('\n') == text.size() - 1;
}

std::vector<std::string> trainArguments(const std::string &data, const std::string &model, const std::string &out)
{
    std::vector<std::string> arguments{"train",
                                       data,
                                       "--target",
                                       "memory",
                                       "--model",
                                       model,
                                       "--out",
                                       out,
                                       "--test-fraction",
                                       "0.25",
                                       "--coverage",
                                       "0.8",
                                       "--calibration-fraction",
                                       "0.3"};
    if (model == "bigru_transformer")
        arguments.insert(arguments.end(), {"--preset", "fast", "--set", "epochs=2"});
    return arguments;
}

} // namespace

class TestCalibrationCommandLine : public QObject
{
    Q_OBJECT

  private:
    QTemporaryDir mFolder;
    std::string mJobs;
    std::string mNumericJobs;

    std::string path(const char *name) const { return mFolder.filePath(QString::fromLatin1(name)).toStdString(); }

    // Trains a ridge model with the calibration and returns its folder.
    std::string calibratedRidge(const char *name)
    {
        const std::string model = path(name);
        const Run train = runGpumem(trainArguments(mJobs, "ridge", model));
        if (train.exitCode != 0)
            qWarning() << train.err.c_str();
        return model;
    }

    QJsonObject modelJson(const std::string &model) const
    {
        return QJsonDocument::fromJson(readAll(model + "/model.json")).object();
    }

    void writeModelJson(const std::string &model, const QJsonObject &metadata) const
    {
        gpumem::io::writeFileAtomically(model + "/model.json", QJsonDocument(metadata).toJson().toStdString());
    }

  private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mFolder.isValid());
        mJobs = path("jobs.csv");
        mNumericJobs = path("numeric.csv");
        gpumem::io::writeFileAtomically(mJobs, jobsCsv());
        gpumem::io::writeFileAtomically(mNumericJobs, numericJobsCsv());
    }

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
        const std::string folder = path(("every-" + name).c_str());
        std::vector<std::string> arguments = trainArguments(mJobs, name, folder);
        const std::string trainPredictions = folder + ".train.csv";
        arguments.insert(arguments.end(), {"--predictions", trainPredictions});
        const Run train = runGpumem(arguments);
        QVERIFY2(train.exitCode == 0, train.err.c_str());
        QVERIFY2(train.out.find("upper bound: difficulty score, coverage 0.8") != std::string::npos, train.out.c_str());

        const QJsonObject calibration = modelJson(folder).value("calibration").toObject();
        QCOMPARE(calibration.value("score").toString(), QStringLiteral("difficulty"));
        QCOMPARE(calibration.value("coverage").toDouble(), 0.8);
        QCOMPARE(calibration.value("calibration_rows").toInt(), 14); // round(45 · 0.3)

        // predict serves the stored level with the very bounds train computed.
        const std::string predictions = folder + ".csv";
        const Run predict = runGpumem({"predict", folder, mJobs, "--out", predictions});
        QVERIFY2(predict.exitCode == 0, predict.err.c_str());
        const QByteArray served = readAll(predictions);
        QVERIFY(served.startsWith("prediction,upper_bound,actual,error")); // extrapolated follows where ranges are kept
        QCOMPARE(column(served, "upper_bound"), column(readAll(trainPredictions), "upper_bound"));

        // Another level from the stored scores, without retraining: never above the stored one.
        const Run lower = runGpumem({"predict", folder, mJobs, "--coverage", "0.6"});
        QVERIFY2(lower.exitCode == 0, lower.err.c_str());
        const auto lowerBounds = column(QByteArray::fromStdString(lower.out), "upper_bound");
        const auto storedBounds = column(served, "upper_bound");
        QCOMPARE(lowerBounds.size(), 60);
        for (int row = 0; row < lowerBounds.size(); ++row)
            QVERIFY(lowerBounds[row].toDouble() <= storedBounds[row].toDouble());
    }

    void predictGivesTheBoundsOfTheInProcessCalibration()
    {
        const std::string folder = path("in-process");
        const Run train = runGpumem({"train", mNumericJobs, "--target", "memory", "--model", "ridge", "--out", folder,
                                     "--test-fraction", "0.25", "--coverage", "0.9", "--calibration-fraction", "0.4",
                                     "--calibration-score", "relative", "--seed", "7"});
        QVERIFY2(train.exitCode == 0, train.err.c_str());
        const Run predict = runGpumem({"predict", folder, mNumericJobs, "--coverage", "0.85"});
        QVERIFY2(predict.exitCode == 0, predict.err.c_str());
        const auto served = column(QByteArray::fromStdString(predict.out), "upper_bound");

        // The same split, fit and calibration in-process.
        const gpumem::data::Table table = gpumem::data::loadTable(mNumericJobs);
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
        const std::string plain = path("plain");
        const std::string calibrated = path("calibrated");
        const Run withoutCoverage = runGpumem({"train", mJobs, "--target", "memory", "--model", "ridge", "--out", plain,
                                               "--test-fraction", "0.25", "--predictions", plain + ".csv"});
        QVERIFY2(withoutCoverage.exitCode == 0, withoutCoverage.err.c_str());
        std::vector<std::string> arguments = trainArguments(mJobs, "ridge", calibrated);
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
        std::vector<std::string> arguments = trainArguments(mJobs, "random_forest", path("report"));
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

        const Run text = runGpumem(trainArguments(mJobs, "random_forest", path("report-text")));
        QVERIFY(text.out.find("test bound:") != std::string::npos);
        QVERIFY(text.out.find("test +10% headroom: under-predicts") != std::string::npos);
        QVERIFY(text.out.find("headroom (the smallest reaching 0.8 on the calibration rows): under-predicts") !=
                std::string::npos);
    }

    void refusesBadCoverageInOneLine_data()
    {
        addColumns<QString>("coverage");
        for (const char *value : {"0", "1", "1.5", "nan", "NaN", "-0.2", "inf", "ninety"})
            addRow(value, QString::fromLatin1(value));
    }

    void refusesBadCoverageInOneLine()
    {
        QFETCH(QString, coverage);
        const std::string level = coverage.toStdString();
        const Run train = runGpumem(
            {"train", mJobs, "--target", "memory", "--model", "ridge", "--coverage", level, "--out", path("refused")});
        QCOMPARE(train.exitCode, 1);
        QVERIFY2(isOneLine(train.err), train.err.c_str());
        QVERIFY2(train.err.rfind("gpumem train: --coverage takes a number strictly between 0 and 1", 0) == 0,
                 train.err.c_str());
        QVERIFY(!QFile::exists(QString::fromStdString(path("refused"))));

        const std::string model = calibratedRidge("for-refusals");
        const Run predict = runGpumem({"predict", model, mJobs, "--coverage", level});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(isOneLine(predict.err), predict.err.c_str());
        QVERIFY2(predict.err.find("--coverage takes a number strictly between 0 and 1") != std::string::npos,
                 predict.err.c_str());
    }

    void refusesCoverageTheRowsCannotServe()
    {
        // 14 calibration rows cannot serve 0.99 (the difficulty score needs 197):
        // refused before the model is trained, and on predict from the stored scores.
        std::vector<std::string> arguments = trainArguments(mJobs, "ridge", path("too-few"));
        arguments[11] = "0.99";
        const Run train = runGpumem(arguments);
        QCOMPARE(train.exitCode, 1);
        QVERIFY2(isOneLine(train.err), train.err.c_str());
        QVERIFY2(train.err.find("coverage 0.99 needs at least 197 calibration rows with the difficulty score, but "
                                "there are 14") != std::string::npos,
                 train.err.c_str());
        QVERIFY(train.out.empty());

        const Run predict = runGpumem({"predict", calibratedRidge("served"), mJobs, "--coverage", "0.99"});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(isOneLine(predict.err), predict.err.c_str());
        QVERIFY(predict.err.find("needs at least 197 calibration rows") != std::string::npos);
    }

    void saysSoWithoutAStoredCalibration()
    {
        const std::string model = path("uncalibrated");
        QCOMPARE(runGpumem({"train", mJobs, "--target", "memory", "--model", "ridge", "--out", model}).exitCode, 0);
        const Run plain = runGpumem({"predict", model, mJobs});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY(plain.out.rfind("prediction,actual,error,extrapolated\n", 0) == 0);
        const Run predict = runGpumem({"predict", model, mJobs, "--coverage", "0.9"});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(isOneLine(predict.err), predict.err.c_str());
        QVERIFY2(predict.err.find("trained without --coverage") != std::string::npos, predict.err.c_str());

        const Run stray = runGpumem({"train", mJobs, "--target", "memory", "--model", "ridge", "--out", model,
                                     "--calibration-fraction", "0.3"});
        QCOMPARE(stray.exitCode, 1);
        QVERIFY(stray.err.find("--calibration-fraction takes effect only with --coverage") != std::string::npos);
    }

    void refusesBadCalibrationOptionsInOneLine()
    {
        std::vector<std::string> arguments = trainArguments(mJobs, "ridge", path("bad-options"));
        arguments.insert(arguments.end(), {"--calibration-score", "quantile"});
        const Run score = runGpumem(arguments);
        QCOMPARE(score.exitCode, 1);
        QVERIFY2(isOneLine(score.err), score.err.c_str());
        QVERIFY(
            score.err.find("unknown calibration score 'quantile'; choose absolute, relative, difficulty or spread") !=
            std::string::npos);
        // The spread score reads an ensemble's members; a single model is refused before it trains.
        arguments = trainArguments(mJobs, "ridge", path("bad-options"));
        arguments.insert(arguments.end(), {"--calibration-score", "spread"});
        const Run spread = runGpumem(arguments);
        QCOMPARE(spread.exitCode, 1);
        QVERIFY2(isOneLine(spread.err), spread.err.c_str());
        QVERIFY2(spread.err.find("use --calibration-score difficulty") != std::string::npos, spread.err.c_str());
        for (const char *fraction : {"0", "1", "-0.1", "half"}) {
            arguments = trainArguments(mJobs, "ridge", path("bad-options"));
            arguments[13] = fraction; // the value of --calibration-fraction
            const Run refused = runGpumem(arguments);
            QCOMPARE(refused.exitCode, 1);
            QVERIFY2(isOneLine(refused.err), refused.err.c_str());
            QVERIFY2(refused.err.find("--calibration-fraction") != std::string::npos, refused.err.c_str());
        }
        const Run help = runGpumem({"train", "--help"});
        QVERIFY(help.out.find("--coverage C") != std::string::npos);
        QVERIFY(help.out.find("--calibration-score absolute|relative|difficulty") != std::string::npos);
        QVERIFY(runGpumem({"predict", "--help"}).out.find("--coverage C") != std::string::npos);
    }

    void refusesAHostileStoredCalibration_data()
    {
        addColumns<QString, QString>("change", "expected");
        addRow("unsorted scores", "unsorted", "ascending order");
        addRow("NaN score", "nan", "expected a number");
        addRow("huge score array", "huge", "more than the");
        addRow("huge column list", "columns", "more than the");
        addRow("coverage 1", "coverage", "strictly between 0 and 1");
        addRow("not an object", "array", "expected an object");
    }

    void refusesAHostileStoredCalibration()
    {
        QFETCH(QString, change);
        QFETCH(QString, expected);
        const std::string model = calibratedRidge(("hostile-" + change.toStdString()).c_str());
        QJsonObject metadata = modelJson(model);
        QJsonObject calibration = metadata.value("calibration").toObject();
        QJsonArray scores = calibration.value("scores").toArray();
        QJsonObject difficulty = calibration.value("difficulty").toObject();
        if (change == "unsorted") {
            const QJsonValue first = scores.first();
            scores[0] = scores.last();
            scores[scores.size() - 1] = first;
        } else if (change == "nan") {
            scores[1] = QStringLiteral("NaN");
        } else if (change == "huge") {
            QJsonArray many;
            for (int i = 0; i <= (1 << 20); ++i)
                many.append(1.0);
            scores = many;
        } else if (change == "columns") {
            QJsonArray many;
            for (std::size_t i = 0; i <= gpumem::models::maxModelColumns; ++i)
                many.append(QStringLiteral("c"));
            difficulty["columns"] = many;
        } else if (change == "coverage") {
            calibration["coverage"] = 1.0;
        }
        calibration["scores"] = scores;
        calibration["difficulty"] = difficulty;
        metadata["calibration"] = calibration;
        if (change == "array")
            metadata["calibration"] = QJsonArray{1, 2};
        writeModelJson(model, metadata);

        const Run predict = runGpumem({"predict", model, mJobs});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(isOneLine(predict.err), predict.err.c_str());
        QVERIFY2(predict.err.find(model + "/model.json") != std::string::npos, predict.err.c_str());
        QVERIFY2(predict.err.find(expected.toStdString()) != std::string::npos, predict.err.c_str());
    }

    void aStoredCalibrationNeverServesAnInfiniteBound_data()
    {
        addColumns<QString, QString, QString>("change", "where", "expected");
        // Finite, but -1e308 times any scale above 1 is a bound of -inf: refused as the folder is read.
        addRow("score -1e308", "score", "model.json", "must lie within +-1e+15 (item 0 is -1e+308)");
        // Each part within its limit, yet e^700 times 1e15 overflows: refused at the job it would bound.
        addRow("scale e^700 times 1e15", "scale", "jobs.csv:2:", "the upper bound of this job is not finite");
    }
    void aStoredCalibrationNeverServesAnInfiniteBound()
    {
        QFETCH(QString, change);
        QFETCH(QString, where);
        QFETCH(QString, expected);
        const std::string model = calibratedRidge(("infinite-" + change.toStdString()).c_str());
        QJsonObject metadata = modelJson(model);
        QJsonObject calibration = metadata.value("calibration").toObject();
        QJsonArray scores;
        for (int i = 0; i < calibration.value("scores").toArray().size(); ++i)
            scores.append(change == "score" ? -1e308 : 1e15);
        calibration["scores"] = scores;
        if (change == "scale") {
            QJsonObject difficulty = calibration.value("difficulty").toObject();
            difficulty["lowest"] = 700.0;
            difficulty["highest"] = 700.0;
            calibration["difficulty"] = difficulty;
        }
        metadata["calibration"] = calibration;
        writeModelJson(model, metadata);

        const Run predict = runGpumem({"predict", model, mJobs});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(isOneLine(predict.err), predict.err.c_str());
        QVERIFY2(predict.err.find(where.toStdString()) != std::string::npos, predict.err.c_str());
        QVERIFY2(predict.err.find(expected.toStdString()) != std::string::npos, predict.err.c_str());
        QVERIFY2(predict.out.find("inf") == std::string::npos, predict.out.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCalibrationCommandLine)
#include "test_CalibrationCommandLine.moc"
