// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandLineRun.h"
#include "FileSystemHazards.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

const std::string data = GPUMEM_TEST_DATA_DIR "/jobs_training.csv";

std::vector<std::string> sweepArguments(const std::string &out)
{
    return {"sweep",          data,      "--target",   "memory_mib", "--preset",
            "fast",           "--param", "epochs=1,2", "--param",    "learning_rate=0.01,0.002",
            "--reproducible", "--out",   out};
}

} // namespace

class TestSweepCommand : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void writesOneRecordPerTrialInOrder()
    {
        QTemporaryDir folder;
        const QString out = folder.filePath("runs.jsonl");
        const Run run = runGpumem(sweepArguments(out.toStdString()));
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        QVERIFY2(QString::fromStdString(run.out).contains("wrote 4 of 4 runs"), run.out.c_str());
        const QList<QByteArray> lines = fileBytes(out).split('\n');
        QCOMPARE(lines.size(), 6); // the sweep's line, four runs and the empty piece after the last newline
        const QJsonObject header = QJsonDocument::fromJson(lines[0]).object();
        QCOMPARE(header.value("plan").toString(), QString("grid epochs=1,2 learning_rate=0.01,0.002"));
        QCOMPARE(header.value("model").toString(), QString("bigru_transformer"));
        QCOMPARE(header.value("trials").toInt(), 4);
        QCOMPARE(header.value("sweep").toString().size(), 64);
        const char *expected[4][2] = {{"1", "0.01"}, {"1", "0.002"}, {"2", "0.01"}, {"2", "0.002"}};
        for (int trial = 0; trial < 4; ++trial) {
            const QJsonObject record = QJsonDocument::fromJson(lines[trial + 1]).object();
            QCOMPARE(record.value("sweep").toString(), header.value("sweep").toString());
            QCOMPARE(record.value("trial").toInt(), trial);
            QCOMPARE(record.value("trials").toInt(), 4);
            QCOMPARE(record.value("values").toObject().value("epochs").toString(), QString(expected[trial][0]));
            const QJsonObject runObject = record.value("run").toObject();
            const QJsonObject values = runObject.value("hyperparameters").toObject();
            QCOMPARE(values.value("epochs").toInt(), QString(expected[trial][0]).toInt());
            QCOMPARE(values.value("learning_rate").toDouble(), QString(expected[trial][1]).toDouble());
            QCOMPARE(int(runObject.value("epochs").toArray().size()), QString(expected[trial][0]).toInt());
            // 80 rows, a fifth held out as `train --test-fraction 0.2` holds them out.
            QCOMPARE(runObject.value("validation_rows").toInt(), 16);
            QCOMPARE(runObject.value("train_rows").toInt(), 64);
            QVERIFY(runObject.value("validation_metrics").toObject().value("rmse").toDouble() > 0.0);
            QVERIFY(!runObject.value("batches").toArray().isEmpty());
            QCOMPARE(runObject.value("seconds").toDouble(), 0.0); // --reproducible
            QCOMPARE(runObject.value("seed").toInt(), 42);
        }
    }

    void shardsMergeIntoTheSingleRunsFile()
    {
        QTemporaryDir folder;
        const std::string whole = folder.filePath("whole.jsonl").toStdString();
        QCOMPARE(runGpumem(sweepArguments(whole)).exitCode, 0);
        std::vector<std::string> parts;
        for (int shard = 0; shard < 3; ++shard) {
            parts.push_back(folder.filePath(QStringLiteral("part%1.jsonl").arg(shard)).toStdString());
            const Run run =
                runGpumem(withArguments(sweepArguments(parts.back()), {"--shard", std::to_string(shard) + "/3"}));
            QVERIFY2(run.exitCode == 0, run.err.c_str());
        }
        QCOMPARE(lineCount(fileBytes(QString::fromStdString(parts[0])).toStdString()), 3); // the sweep, trials 0 and 3
        const std::string merged = folder.filePath("merged.jsonl").toStdString();
        const Run merge = runGpumem({"sweep", "--merge", parts[2], parts[0], parts[1], "--out", merged});
        QVERIFY2(merge.exitCode == 0, merge.err.c_str());
        QCOMPARE(fileBytes(QString::fromStdString(merged)), fileBytes(QString::fromStdString(whole)));

        const Run missing = runGpumem({"sweep", "--merge", parts[0], parts[1], "--out", merged});
        QCOMPARE(missing.exitCode, 1);
        QCOMPARE(lineCount(missing.err), 1);
        QVERIFY2(QString::fromStdString(missing.err).contains("trial 2 of 4 is in none"), missing.err.c_str());
        // The refused merge left the earlier merged file as it was.
        QCOMPARE(fileBytes(QString::fromStdString(merged)), fileBytes(QString::fromStdString(whole)));

        const Run onto = runGpumem({"sweep", "--merge", parts[0], parts[1], parts[2], "--out", parts[0]});
        QCOMPARE(onto.exitCode, 1);
        QCOMPARE(lineCount(onto.err), 1);
    }

    // Issue 24: a part whose metric was edited by hand merged as if the trial had measured it,
    // and a long invalid token came back as a line of megabytes.
    void refusesAnEditedOrDamagedPart()
    {
        QTemporaryDir folder;
        const std::string part = folder.filePath("part.jsonl").toStdString();
        QCOMPARE(runGpumem(sweepArguments(part)).exitCode, 0);
        const QByteArray written = fileBytes(QString::fromStdString(part));
        const std::string merged = folder.filePath("merged.jsonl").toStdString();

        QByteArray edited = written;
        const int rmse = edited.indexOf("\"rmse\":");
        QVERIFY(rmse > 0);
        edited.insert(rmse + 7, "1");
        QVERIFY(writeFile(QString::fromStdString(part), edited));
        const Run metric = runGpumem({"sweep", "--merge", part, "--out", merged});
        QCOMPARE(metric.exitCode, 1);
        QCOMPARE(lineCount(metric.err), 1);
        QVERIFY2(QString::fromStdString(metric.err).contains("does not match its digest"), metric.err.c_str());

        QVERIFY(writeFile(QString::fromStdString(part), "{\"sweep\": \"" + QByteArray(1 << 20, 'x') + "\x01\"}\n"));
        const Run token = runGpumem({"sweep", "--merge", part, "--out", merged});
        QCOMPARE(token.exitCode, 1);
        QCOMPARE(lineCount(token.err), 1);
        QVERIFY2(token.err.size() < 400, token.err.substr(0, 400).c_str());
        QVERIFY(!QFile::exists(QString::fromStdString(merged)));
    }

    // Issue 49: --out was emptied when the sweep started, so a sweep that failed on its first trial,
    // was stopped (a Slurm time limit) or met a full disk left 0 bytes of the runs it replaced.
    void aSweepThatFailsOnItsFirstTrialLeavesTheFinishedRuns()
    {
        QTemporaryDir folder;
        const QString out = folder.filePath("runs.jsonl");
        QCOMPARE(runGpumem(sweepArguments(out.toStdString())).exitCode, 0);
        const QByteArray finished = fileBytes(out);

        const Run failed = runGpumem({"sweep", data, "--target", "memory_mib", "--preset", "fast", "--param", "heads=3",
                                      "--out", out.toStdString()});
        QCOMPARE(failed.exitCode, 1);
        QVERIFY2(QString::fromStdString(failed.err).contains("must divide d_model"), failed.err.c_str());
        QCOMPARE(fileBytes(out), finished);
    }

    void aFullDiskOnTheFirstRunLeavesTheFinishedRuns()
    {
        QTemporaryDir folder;
        const QString out = folder.filePath("runs.jsonl");
        const std::vector<std::string> ridge{"sweep", data,      "--target",  "memory_mib", "--model",
                                             "ridge", "--param", "alpha=1,2", "--out",      out.toStdString()};
        QVERIFY(writeFile(out, "the runs of an earlier sweep\n"));
        const Run run = [&] {
            const gpumem::tests::FileSizeLimit fullDisk(512);
            return runGpumem(ridge);
        }();
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(QString::fromStdString(run.err).contains("cannot write"), run.err.c_str());
        QCOMPARE(fileBytes(out), QByteArray("the runs of an earlier sweep\n"));
        QCOMPARE(QDir(folder.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"runs.jsonl"});
    }

    void aWholeSweepFileMergesIntoItself()
    {
        QTemporaryDir folder;
        const QString out = folder.filePath("runs.jsonl");
        const Run run = runGpumem({"sweep", data, "--target", "memory_mib", "--model", "ridge", "--param",
                                   "alpha=1,2,3", "--reproducible", "--out", out.toStdString()});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        QCOMPARE(lineCount(fileBytes(out).toStdString()), 4);
        const auto merged = folder.filePath("merged.jsonl").toStdString();
        const Run merge = runGpumem({"sweep", "--merge", out.toStdString(), "--out", merged});
        QVERIFY2(merge.exitCode == 0, merge.err.c_str());
        QVERIFY2(QString::fromStdString(merge.out).startsWith("merged 3 runs from 1 files"), merge.out.c_str());
        QCOMPARE(fileBytes(QString::fromStdString(merged)), fileBytes(out));
    }

    void refusesUnknownHyperparametersBeforeTraining()
    {
        QTemporaryDir folder;
        const QString out = folder.filePath("runs.jsonl");
        const Run run =
            runGpumem({"sweep", data, "--target", "memory_mib", "--param", "epoch=1,2", "--out", out.toStdString()});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(QString::fromStdString(run.err).startsWith("gpumem sweep: "), run.err.c_str());
        QVERIFY(!QFile::exists(out));
        const Run badShard = runGpumem(withArguments(sweepArguments(out.toStdString()), {"--shard", "3/3"}));
        QCOMPARE(badShard.exitCode, 1);
        QVERIFY(!QFile::exists(out));
        const Run help = runGpumem({"sweep", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(QString::fromStdString(help.out).contains("--shard"));
    }

    void randomSweepDrawsDistinctTrials()
    {
        QTemporaryDir folder;
        const QString out = folder.filePath("runs.jsonl");
        const Run run = runGpumem({"sweep", data, "--target", "memory_mib", "--model", "decision_tree", "--param",
                                   "max_depth=2,3,4,5", "--random", "3", "--seed", "9", "--out", out.toStdString()});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const QList<QByteArray> lines = fileBytes(out).split('\n');
        QCOMPARE(lines.size(), 5);
        QSet<QString> depths;
        for (int trial = 1; trial <= 3; ++trial)
            depths.insert(QJsonDocument::fromJson(lines[trial])
                              .object()
                              .value("values")
                              .toObject()
                              .value("max_depth")
                              .toString());
        QCOMPARE(depths.size(), 3);
    }

    void probeShardsMergeIntoTheSingleRunsFile()
    {
        QTemporaryDir folder;
        const std::vector<std::string> probe = {"probe",   "--family", "mlp",    "--count", "7",
                                                "--steps", "1",        "--seed", "3"};
        const std::string whole = folder.filePath("whole.csv").toStdString();
        QCOMPARE(runGpumem(withArguments(probe, {"--out", whole})).exitCode, 0);
        std::vector<std::string> parts;
        for (int shard = 0; shard < 3; ++shard) {
            parts.push_back(folder.filePath(QStringLiteral("part%1.csv").arg(shard)).toStdString());
            const Run run =
                runGpumem(withArguments(probe, {"--shard", std::to_string(shard) + "/3", "--out", parts.back()}));
            QVERIFY2(run.exitCode == 0, run.err.c_str());
        }
        const std::string merged = folder.filePath("merged.csv").toStdString();
        const Run merge = runGpumem(withArguments(probe, {"--merge", parts[1], parts[0], parts[2], "--out", merged}));
        QVERIFY2(merge.exitCode == 0, merge.err.c_str());
        QCOMPARE(fileBytes(QString::fromStdString(merged)), fileBytes(QString::fromStdString(whole)));

        const Run missing = runGpumem(withArguments(probe, {"--merge", parts[0], parts[2], "--out", merged}));
        QCOMPARE(missing.exitCode, 1);
        QCOMPARE(lineCount(missing.err), 1);
        const Run overlap =
            runGpumem(withArguments(probe, {"--merge", parts[0], parts[1], parts[2], parts[1], "--out", merged}));
        QCOMPARE(overlap.exitCode, 1);
        QVERIFY2(QString::fromStdString(overlap.err).contains("overlapping"), overlap.err.c_str());
        const std::vector<std::string> otherSeed = {"probe",   "--family", "mlp",    "--count", "7",
                                                    "--steps", "1",        "--seed", "4"};
        const Run mismatched =
            runGpumem(withArguments(otherSeed, {"--merge", parts[0], parts[1], parts[2], "--out", merged}));
        QCOMPARE(mismatched.exitCode, 1);
        QVERIFY2(QString::fromStdString(mismatched.err).contains("another probe"), mismatched.err.c_str());
        QCOMPARE(fileBytes(QString::fromStdString(merged)), fileBytes(QString::fromStdString(whole)));
    }
};

QTEST_GUILESS_MAIN(TestSweepCommand)
#include "test_SweepCommand.moc"
