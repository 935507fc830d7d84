// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandLineRun.h"
#include "DataTables.h"
#include "EstimateFixtures.h"
#include "FileSystemHazards.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <sys/stat.h>

class TestEstimateCommandLine : public QObject, private gpumem::tests::UsesEstimateFixtures
{
    Q_OBJECT

  private Q_SLOTS:
    void helpSaysTheFileIsAProgram()
    {
        const auto run = runGpumem({"estimate", "--help"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.find("torch.load") != std::string::npos);
        QVERIFY(run.out.find("--input-shape") != std::string::npos);
        QVERIFY(run.out.find("a100-80") != std::string::npos);
    }

    void jsonHasEveryKeyPerBatch()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const auto run = runGpumem({"estimate", mFixtures.path("cnn.pt"), "--input-shape", "3,16,16", "--batch-size",
                                    "8,32", "--max-batch", "--gpu", "t4", "--json"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.empty(), run.err.c_str());
        const QJsonObject document = QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).object();
        const QJsonArray estimates = document.value("estimates").toArray();
        QCOMPARE(estimates.size(), 2);
        QCOMPARE(estimates.at(0).toObject().value("batch_size").toInt(), 8);
        for (const auto &value : estimates) {
            const QJsonObject estimate = value.toObject();
            for (const char *key : {"peak_allocated_mib", "peak_reserved_mib", "workspace_mib", "context_mib",
                                    "device_total_mib", "fits", "breakdown"})
                QVERIFY2(estimate.contains(key), key);
            QVERIFY(estimate.value("fits").toBool());
            const QJsonObject breakdown = estimate.value("breakdown").toObject();
            double sum = 0.0;
            for (const char *key : {"parameters_mib", "gradients_mib", "optimizer_state_mib", "activations_mib",
                                    "cudnn_workspaces_mib", "allocator_overhead_mib"}) {
                QVERIFY2(breakdown.contains(key), key);
                sum += breakdown.value(key).toDouble();
            }
            // The breakdown accounts for the reserved peak (values are rounded to 0.001 MiB).
            QVERIFY(std::abs(sum - estimate.value("peak_reserved_mib").toDouble()) < 0.01);
            QVERIFY(estimate.value("peak_reserved_mib").toDouble() >= estimate.value("peak_allocated_mib").toDouble());
            QCOMPARE(
                estimate.value("device_total_mib").toDouble(),
                std::round((estimate.value("peak_reserved_mib").toDouble() +
                            estimate.value("workspace_mib").toDouble() + estimate.value("context_mib").toDouble()) *
                           1000.0) /
                    1000.0);
        }
        QVERIFY(document.value("max_batch").toInt() > 32);
        QVERIFY(document.value("extrapolated").toBool());
        // The cost does not grow with the batch: only small batches ran on the CPU (two
        // to fit the line, a third to check it: at most 2, 4 and 6).
        const QJsonArray traced = document.value("traced_batches").toArray();
        QVERIFY(!traced.isEmpty());
        for (const auto &batch : traced)
            QVERIFY(batch.toInt() <= 6);
    }

    void textTableAndTimeline()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        QTemporaryDir folder;
        const std::string timeline = folder.filePath("step.csv").toStdString();
        const auto run = runGpumem({"estimate", mFixtures.path("mlp.pt"), "--input-shape", "20", "--batch-size", "16",
                                    "--optimizer", "sgd_momentum", "--context-mib", "100", "--timeline", timeline});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.find("context 100.0 MiB") != std::string::npos, run.out.c_str());
        QFile file(QString::fromStdString(timeline));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.front(), QByteArray("event,phase,category,allocated_mib,reserved_mib"));
        QVERIFY(lines.size() > 10);
        QVERIFY(lines.at(1).startsWith("0,setup,parameters,"));
        const QByteArray all = lines.join('\n');
        for (const char *phase : {",forward,", ",backward,", ",optimizer,"})
            QVERIFY2(all.contains(phase), phase);
    }

    void tokenInputsTrainALanguageModel()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const auto run = runGpumem({"estimate", mFixtures.path("tokens.pt"), "--input-shape", "12", "--input-kind",
                                    "tokens", "--vocabulary", "50", "--batch-size", "64", "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject document = QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).object();
        const QJsonObject breakdown =
            document.value("estimates").toArray().at(0).toObject().value("breakdown").toObject();
        // 50 × 16 + 16 × 50 + 50 float32 parameters, Adam's two moments of each.
        const double parameterMib = (50 * 16 + 16 * 50 + 50) * 4.0 / (1024.0 * 1024.0);
        QVERIFY(breakdown.value("parameters_mib").toDouble() >= parameterMib - 0.001);
        QVERIFY(breakdown.value("optimizer_state_mib").toDouble() <= 2.0 * parameterMib + 0.01);
        // Token ids beyond the embedding's rows fail inside the model: one line.
        const auto beyond = runGpumem({"estimate", mFixtures.path("tokens.pt"), "--input-shape", "12", "--input-kind",
                                       "tokens", "--vocabulary", "500"});
        QCOMPARE(beyond.exitCode, 1);
        QCOMPARE(lineCount(beyond.err), 1);
    }

    void rejectedShapeIsOneLineExitOne()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const auto run = runGpumem({"estimate", mFixtures.path("mlp.pt"), "--input-shape", "7"});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(run.err.rfind("gpumem estimate: ", 0) == 0, run.err.c_str());
        QVERIFY2(run.err.find("shapes cannot be multiplied") != std::string::npos, run.err.c_str());
    }

    void notTorchScriptIsOneLineExitOne()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("notes.pt");
        QVERIFY(gpumem::tests::writeFile(path, "just some text\n"));
        const auto run = runGpumem({"estimate", path.toStdString(), "--input-shape", "20"});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(run.err.find("not a TorchScript file") != std::string::npos, run.err.c_str());
    }

    // Issue 49: `mkfifo model.pt; gpumem estimate model.pt` waited in open() for ever.
    void aFifoAsTheModelIsRefusedAtOnce()
    {
        QTemporaryDir folder;
        const std::string fifo = folder.filePath("model.pt").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const auto finished = gpumem::tests::resultUnlessBlockedOn(QString::fromStdString(fifo), [&] {
            return runGpumem({"estimate", fifo, "--input-shape", "4"});
        });
        QVERIFY2(finished, "estimate waited for a writer on the FIFO");
        const Run &run = *finished;
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(run.err.find("model.pt: is not a regular file") != std::string::npos, run.err.c_str());
    }

    // Issue 49: --context-mib nan was accepted and printed a device total of "nan MiB".
    void aContextThatIsNoNumberOfMibIsRefused_data()
    {
        addColumns<QString>("context");
        addRow("not a number", QStringLiteral("nan"));
        addRow("infinite", QStringLiteral("inf"));
        addRow("negative", QStringLiteral("-1"));
    }
    void aContextThatIsNoNumberOfMibIsRefused()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        QFETCH(QString, context);
        const auto run = runGpumem(
            {"estimate", mFixtures.path("mlp.pt"), "--input-shape", "20", "--context-mib", context.toStdString()});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(run.err.find("--context-mib") != std::string::npos, run.err.c_str());
        QVERIFY2(run.err.find("takes a number from 0 to") != std::string::npos, run.err.c_str());
    }

    // Issue 24: --timeline X overwrote the --gpu profile or the model when X named it.
    void timelineNeverReplacesTheModelOrTheProfile_data()
    {
        addColumns<QString, QString>("timeline", "expected");
        addRow("the profile", "{dir}/card.json", "--timeline would overwrite the input --gpu");
        addRow("a link to the model", "{dir}/model-link.csv", "--timeline would overwrite the input MODEL.pt");
    }
    void timelineNeverReplacesTheModelOrTheProfile()
    {
        const auto [timeline, expected] = fetchColumns<QString, QString>("timeline", "expected");
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        QTemporaryDir folder;
        const QString model = folder.filePath("cnn.pt");
        QVERIFY(QFile::copy(QString::fromStdString(mFixtures.path("cnn.pt")), model));
        QVERIFY(QFile::link(model, folder.filePath("model-link.csv")));
        const QByteArray profile = R"({"name": "card", "capacity_mib": 16384, "context_mib": 300, )"
                                   R"("workspace_mib": 8, "source": "test"})";
        QVERIFY(gpumem::tests::writeFile(folder.filePath("card.json"), profile));
        const QByteArray modelBytes = gpumem::tests::fileBytes(model);
        const auto run = runGpumem({"estimate", model.toStdString(), "--input-shape", "3,16,16", "--gpu",
                                    folder.filePath("card.json").toStdString(), "--timeline",
                                    QString(timeline).replace("{dir}", folder.path()).toStdString()});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(gpumem::tests::contains(run.err, expected.toStdString()), run.err.c_str());
        QCOMPARE(gpumem::tests::fileBytes(folder.filePath("card.json")), profile);
        QCOMPARE(gpumem::tests::fileBytes(model), modelBytes);
    }

    // Issue 24: a bad --timeline name was refused only after the model had run.
    void timelineNameIsCheckedBeforeTheModelRuns()
    {
        const auto run = runGpumem({"estimate", "/nonexistent/model.pt", "--input-shape", "3", "--timeline", "t.txt"});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(gpumem::tests::contains(run.err, "t.txt: --timeline writes FILE.csv or FILE.json"), run.err.c_str());
    }

    void badOptionsAreOneLineExitOne_data()
    {
        addColumns<QStringList>("arguments");
        addRow("no shape", QStringList{"m.pt"});
        addRow("bad shape", QStringList{"m.pt", "--input-shape", "3,x"});
        addRow("bad optimizer", QStringList{"m.pt", "--input-shape", "3", "--optimizer", "lion"});
        addRow("bad batch", QStringList{"m.pt", "--input-shape", "3", "--batch-size", "0"});
        addRow("tokens without vocabulary", QStringList{"m.pt", "--input-shape", "3", "--input-kind", "tokens"});
        addRow("unknown gpu", QStringList{"m.pt", "--input-shape", "3", "--gpu", "b200-999"});
        addRow("timeline extension", QStringList{"m.pt", "--input-shape", "3", "--timeline", "t.txt"});
    }
    void badOptionsAreOneLineExitOne()
    {
        QFETCH(QStringList, arguments);
        std::vector<std::string> command{"estimate"};
        for (const auto &argument : arguments)
            command.push_back(argument.toStdString());
        const auto run = runGpumem(command);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
    }
};

QTEST_GUILESS_MAIN(TestEstimateCommandLine)
#include "test_EstimateCommandLine.moc"
