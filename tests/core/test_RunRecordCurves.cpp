// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/InputError.h"
#include "runs/RunRecord.h"

#include <QTest>

#include <cmath>

using gpumem::runs::RunRecord;
using Json = nlohmann::ordered_json;

// A run keeps its errors in MiB beside the losses, and the data file it trained on, so
// that the Runs page draws and separates runs in the units people read.
class TestRunRecordCurves : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void keepsTheErrorsInMibAndTheDataFile()
    {
        gpumem::training::EpochProgress progress;
        progress.epoch = 3;
        progress.trainLoss = 0.25;
        progress.validationLoss = -1.0; // no validation rows
        progress.learningRate = 0.001;
        progress.trainRmse = 41.5;
        const gpumem::runs::EpochPoint point = gpumem::runs::epochPoint(progress);
        QCOMPARE(point.trainRmse, 41.5);
        QVERIFY(std::isnan(point.validationRmse));
        QVERIFY(std::isnan(point.validationLoss));

        RunRecord record;
        record.name = "run 1";
        record.epochs = {point, {4, 0.125, 0.5, 0.0005, 30.25, 35.75}};
        record.dataset = "/data/jobs.csv";
        const Json json = record;
        QCOMPARE(json["dataset"].get<std::string>(), std::string("/data/jobs.csv"));
        QCOMPARE(json["epochs"][1].size(), std::size_t{6});
        QVERIFY(json["epochs"][0][5].is_null());
        const RunRecord read = Json::parse(json.dump()).get<RunRecord>();
        QCOMPARE(read.dataset, record.dataset);
        QCOMPARE(read.epochs[1].trainRmse, 30.25);
        QCOMPARE(read.epochs[1].validationRmse, 35.75);
        QVERIFY(std::isnan(read.epochs[0].validationRmse));
        QCOMPARE(Json(read).dump(), json.dump());
    }

    void readsRecordsWrittenBeforeTheErrors()
    {
        // Four numbers a point and no data file, as projects and sweep files of earlier versions hold them.
        Json json = RunRecord();
        json.erase("dataset");
        json["epochs"] = Json::array({Json::array({1, 0.5, 0.6, 0.001})});
        const RunRecord read = json.get<RunRecord>();
        QCOMPARE(read.epochs.size(), std::size_t{1});
        QCOMPARE(read.epochs[0].validationLoss, 0.6);
        QVERIFY(std::isnan(read.epochs[0].trainRmse));
        QVERIFY(std::isnan(read.epochs[0].validationRmse));
        QVERIFY(read.dataset.empty());
        json["epochs"] = Json::array({Json::array({1, 0.5, 0.6, 0.001, 2.0})});
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, json.get<RunRecord>());
    }
};

QTEST_MAIN(TestRunRecordCurves)
#include "test_RunRecordCurves.moc"
