// SPDX-License-Identifier: GPL-3.0-or-later
// `gpumem train --coverage` and `gpumem predict --coverage` refuse on one line: bad levels,
// levels the calibration rows cannot serve, bad calibration options, and hostile stored
// calibrations (scores, columns or scales that are out of order, huge or overflow a bound).
#include "CalibrationJobs.h"
#include "CommandLineRun.h"
#include "DataTables.h"

#include "models/ModelFolder.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

class TestCalibrationRefusals : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { QVERIFY(mFolder.isValid()); }

    void refusesCoverageTheRowsCannotServe()
    {
        // 14 calibration rows cannot serve 0.99 (the difficulty score needs 197):
        // refused before the model is trained, and on predict from the stored scores.
        std::vector<std::string> arguments =
            gpumem::tests::calibratedTrainArguments(mFolder.jobs, "ridge", mFolder.path("too-few"));
        arguments[11] = "0.99";
        const Run train = runGpumem(arguments);
        QCOMPARE(train.exitCode, 1);
        QVERIFY2(gpumem::tests::isOneLineMessage(train.err), train.err.c_str());
        QVERIFY2(train.err.find("coverage 0.99 needs at least 197 calibration rows with the difficulty score, but "
                                "there are 14") != std::string::npos,
                 train.err.c_str());
        QVERIFY(train.out.empty());

        const Run predict =
            runGpumem({"predict", mFolder.calibratedRidge("served"), mFolder.jobs, "--coverage", "0.99"});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(gpumem::tests::isOneLineMessage(predict.err), predict.err.c_str());
        QVERIFY(predict.err.find("needs at least 197 calibration rows") != std::string::npos);
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
        const Run train = runGpumem({"train", mFolder.jobs, "--target", "memory", "--model", "ridge", "--coverage",
                                     level, "--out", mFolder.path("refused")});
        QCOMPARE(train.exitCode, 1);
        QVERIFY2(gpumem::tests::isOneLineMessage(train.err), train.err.c_str());
        QVERIFY2(train.err.rfind("gpumem train: --coverage takes a number strictly between 0 and 1", 0) == 0,
                 train.err.c_str());
        QVERIFY(!QFile::exists(QString::fromStdString(mFolder.path("refused"))));

        const std::string model = mFolder.calibratedRidge("for-refusals");
        const Run predict = runGpumem({"predict", model, mFolder.jobs, "--coverage", level});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(gpumem::tests::isOneLineMessage(predict.err), predict.err.c_str());
        QVERIFY2(predict.err.find("--coverage takes a number strictly between 0 and 1") != std::string::npos,
                 predict.err.c_str());
    }

    void saysSoWithoutAStoredCalibration()
    {
        const std::string model = mFolder.path("uncalibrated");
        QCOMPARE(runGpumem({"train", mFolder.jobs, "--target", "memory", "--model", "ridge", "--out", model}).exitCode,
                 0);
        const Run plain = runGpumem({"predict", model, mFolder.jobs});
        QCOMPARE(plain.exitCode, 0);
        QVERIFY(plain.out.rfind("prediction,actual,error,extrapolated\n", 0) == 0);
        const Run predict = runGpumem({"predict", model, mFolder.jobs, "--coverage", "0.9"});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(gpumem::tests::isOneLineMessage(predict.err), predict.err.c_str());
        QVERIFY2(predict.err.find("trained without --coverage") != std::string::npos, predict.err.c_str());

        const Run stray = runGpumem({"train", mFolder.jobs, "--target", "memory", "--model", "ridge", "--out", model,
                                     "--calibration-fraction", "0.3"});
        QCOMPARE(stray.exitCode, 1);
        QVERIFY(stray.err.find("--calibration-fraction takes effect only with --coverage") != std::string::npos);
    }

    void refusesBadCalibrationOptionsInOneLine()
    {
        std::vector<std::string> arguments =
            gpumem::tests::calibratedTrainArguments(mFolder.jobs, "ridge", mFolder.path("bad-options"));
        arguments.insert(arguments.end(), {"--calibration-score", "quantile"});
        const Run score = runGpumem(arguments);
        QCOMPARE(score.exitCode, 1);
        QVERIFY2(gpumem::tests::isOneLineMessage(score.err), score.err.c_str());
        QVERIFY(
            score.err.find("unknown calibration score 'quantile'; choose absolute, relative, difficulty or spread") !=
            std::string::npos);
        // The spread score reads an ensemble's members; a single model is refused before it trains.
        arguments = gpumem::tests::calibratedTrainArguments(mFolder.jobs, "ridge", mFolder.path("bad-options"));
        arguments.insert(arguments.end(), {"--calibration-score", "spread"});
        const Run spread = runGpumem(arguments);
        QCOMPARE(spread.exitCode, 1);
        QVERIFY2(gpumem::tests::isOneLineMessage(spread.err), spread.err.c_str());
        QVERIFY2(spread.err.find("use --calibration-score difficulty") != std::string::npos, spread.err.c_str());
        for (const char *fraction : {"0", "1", "-0.1", "half"}) {
            arguments = gpumem::tests::calibratedTrainArguments(mFolder.jobs, "ridge", mFolder.path("bad-options"));
            arguments[13] = fraction; // the value of --calibration-fraction
            const Run refused = runGpumem(arguments);
            QCOMPARE(refused.exitCode, 1);
            QVERIFY2(gpumem::tests::isOneLineMessage(refused.err), refused.err.c_str());
            QVERIFY2(refused.err.find("--calibration-fraction") != std::string::npos, refused.err.c_str());
        }
        const Run help = runGpumem({"train", "--help"});
        QVERIFY(help.out.find("--coverage C") != std::string::npos);
        QVERIFY(help.out.find("--calibration-score absolute|relative|difficulty") != std::string::npos);
        QVERIFY(runGpumem({"predict", "--help"}).out.find("--coverage C") != std::string::npos);
    }

    void refusesAHostileStoredCalibration_data()
    {
        // Each row's name is the change the test makes to the stored calibration.
        addColumns<QString>("expected");
        addRow("unsorted scores", "ascending order");
        addRow("NaN score", "expected a number");
        addRow("huge score array", "more than the");
        addRow("huge column list", "more than the");
        addRow("coverage 1", "strictly between 0 and 1");
        addRow("not an object", "expected an object");
    }

    void refusesAHostileStoredCalibration()
    {
        QFETCH(QString, expected);
        const QString change = QString::fromLatin1(QTest::currentDataTag());
        const std::string folder =
            "hostile-" + QString(change).replace(QLatin1Char(' '), QLatin1Char('-')).toStdString();
        const std::string model = mFolder.calibratedRidge(folder.c_str());
        QJsonObject metadata = gpumem::tests::CalibrationFolder::modelJson(model);
        QJsonObject calibration = metadata.value("calibration").toObject();
        QJsonArray scores = calibration.value("scores").toArray();
        QJsonObject difficulty = calibration.value("difficulty").toObject();
        if (change == "unsorted scores") {
            const QJsonValue first = scores.first();
            scores[0] = scores.last();
            scores[scores.size() - 1] = first;
        } else if (change == "NaN score") {
            scores[1] = QStringLiteral("NaN");
        } else if (change == "huge score array") {
            QJsonArray many;
            for (int i = 0; i <= (1 << 20); ++i)
                many.append(1.0);
            scores = many;
        } else if (change == "huge column list") {
            QJsonArray many;
            for (std::size_t i = 0; i <= gpumem::models::maxModelColumns; ++i)
                many.append(QStringLiteral("c"));
            difficulty["columns"] = many;
        } else if (change == "coverage 1") {
            calibration["coverage"] = 1.0;
        }
        calibration["scores"] = scores;
        calibration["difficulty"] = difficulty;
        metadata["calibration"] = calibration;
        if (change == "not an object")
            metadata["calibration"] = QJsonArray{1, 2};
        gpumem::tests::CalibrationFolder::writeModelJson(model, metadata);

        const Run predict = runGpumem({"predict", model, mFolder.jobs});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(gpumem::tests::isOneLineMessage(predict.err), predict.err.c_str());
        QVERIFY2(predict.err.find(model + "/model.json") != std::string::npos, predict.err.c_str());
        QVERIFY2(predict.err.find(expected.toStdString()) != std::string::npos, predict.err.c_str());
    }

    void aStoredCalibrationNeverServesAnInfiniteBound_data()
    {
        // The first word of a row's name is what the test changes: the scores or the scale.
        addColumns<QString, QString>("where", "expected");
        // Finite, but -1e308 times any scale above 1 is a bound of -inf: refused as the folder is read.
        addRow("score -1e308", "model.json", "must lie within +-1e+15 (item 0 is -1e+308)");
        // Each part within its limit, yet e^700 times 1e15 overflows: refused at the job it would bound.
        addRow("scale e^700 times 1e15", "jobs.csv:2:", "the upper bound of this job is not finite");
    }
    void aStoredCalibrationNeverServesAnInfiniteBound()
    {
        const QString change = QString::fromLatin1(QTest::currentDataTag()).section(QLatin1Char(' '), 0, 0);
        const auto [where, expected] = fetchColumns<QString, QString>("where", "expected");
        const std::string model = mFolder.calibratedRidge(("infinite-" + change.toStdString()).c_str());
        QJsonObject metadata = gpumem::tests::CalibrationFolder::modelJson(model);
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
        gpumem::tests::CalibrationFolder::writeModelJson(model, metadata);

        const Run predict = runGpumem({"predict", model, mFolder.jobs});
        QCOMPARE(predict.exitCode, 1);
        QVERIFY2(gpumem::tests::isOneLineMessage(predict.err), predict.err.c_str());
        QVERIFY2(predict.err.find(where.toStdString()) != std::string::npos, predict.err.c_str());
        QVERIFY2(predict.err.find(expected.toStdString()) != std::string::npos, predict.err.c_str());
        QVERIFY2(predict.out.find("inf") == std::string::npos, predict.out.c_str());
    }

  private:
    const gpumem::tests::CalibrationFolder mFolder;
};

QTEST_GUILESS_MAIN(TestCalibrationRefusals)
#include "test_CalibrationRefusals.moc"
