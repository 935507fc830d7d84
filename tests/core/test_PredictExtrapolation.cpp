// SPDX-License-Identifier: GPL-3.0-or-later
// `gpumem predict` names the jobs that lie outside the training data: the model
// folder keeps each feature's training range, the prediction file gains the
// column `extrapolated`, and a model.json with unusable ranges is refused.
#include "CommandLineRun.h"
#include "DataTables.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// GPUMemNet-style rows (layer list, batch, optimizer, memory) whose jobs the allocator simulation
// follows, for a network that takes the simulated peak as an input.
std::string simulatedJobs(int rows)
{
    std::string jobs = "Activations-Params,Batch Size,optimizer,memory\n";
    for (int row = 0; row < rows; ++row) {
        const int width = 16 << (row % 4);
        const int batch = 8 << (row % 3);
        jobs += "\"[('linear', " + std::to_string(width) + ", " + std::to_string(17 * width) + "), ('ReLU', " +
                std::to_string(width) + ", 0), ('linear', 4, " + std::to_string(4 * width + 4) + ")]\"," +
                std::to_string(batch) + "," + (row % 2 ? "sgd" : "adam") + "," +
                std::to_string(900 + width * batch / 16 + row % 5) + "\n";
    }
    return jobs;
}

} // namespace

class TestPredictExtrapolation : public QObject
{
    Q_OBJECT

  private:
    QTemporaryDir mDir;
    QString mModel;

    // Writes jobs to the file called name and trains the network on it (the fast preset,
    // two epochs) into model; says why on failure.
    bool trainNetwork(const char *name, const std::string &jobs, const QString &model) const
    {
        const QString trainingFile = mDir.filePath(QString::fromLatin1(name));
        if (!writeText(trainingFile, jobs))
            return false;
        const auto train =
            runGpumem({"train", trainingFile.toStdString(), "--target", "memory", "--model", "bigru_transformer",
                       "--preset", "fast", "--set", "epochs=2", "--out", model.toStdString()});
        if (train.exitCode != 0)
            qWarning() << train.err.c_str();
        return train.exitCode == 0;
    }

  private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mDir.isValid());
        mModel = mDir.filePath(QStringLiteral("ridge"));
        const auto run = runGpumem({"train", dataFile("jobs_training.csv"), "--target", "memory_mib", "--model",
                                    "ridge", "--out", mModel.toStdString()});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        QVERIFY(readText(mModel + QStringLiteral("/model.json")).find("\"ranges\"") != std::string::npos);
    }

    void namesJobsOutsideTheTrainingRanges()
    {
        // The training file's batches run from 16 to 256 and its optimizers are adam, adamw and sgd.
        const QString jobs = mDir.filePath(QStringLiteral("jobs.csv"));
        QVERIFY(writeText(jobs,
                          "run,batch,optimizer,layers\n"
                          "inside,64,adam,\"[('linear', 1024, 803840), ('ReLU', 1024, 0), ('linear', 10, 10250)]\"\n"
                          "big,4096,adam,\"[('linear', 1024, 803840), ('ReLU', 1024, 0), ('linear', 10, 10250)]\"\n"
                          "novel,64,lion,\"[('linear', 1024, 803840), ('ReLU', 1024, 0), ('linear', 10, 10250)]\"\n"
                          "novel,64,lion,\"[('linear', 1024, 803840), ('ReLU', 1024, 0), ('linear', 10, 10250)]\"\n"));
        const auto run = runGpumem({"predict", mModel.toStdString(), jobs.toStdString()});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        std::istringstream lines(run.out);
        std::string header, inside, big, novel;
        std::getline(lines, header);
        std::getline(lines, inside);
        std::getline(lines, big);
        std::getline(lines, novel);
        QCOMPARE(header, std::string("prediction,extrapolated"));
        QVERIFY2(inside.back() == ',', inside.c_str()); // nothing outside: an empty cell
        QVERIFY2(big.find("batch 4096 > 256 (trained 16 to 256)") != std::string::npos, big.c_str());
        QVERIFY2(novel.find("optimizer 'lion' unseen in training") != std::string::npos, novel.c_str());
        QVERIFY2(run.err.find("warning: line 3 lies outside the training data") != std::string::npos, run.err.c_str());
        QVERIFY2(run.err.find("3 of 4 jobs lie outside the training data") != std::string::npos, run.err.c_str());
    }

    void jobsTheAllocatorSimulationCannotFollowAreMarkedNotRefused()
    {
        // GPUMemNet-style rows that the network takes the simulated allocator peak of.
        const QString model = mDir.filePath(QStringLiteral("simulated"));
        QVERIFY(trainNetwork("gpumemnet.csv", simulatedJobs(40), model));
        QVERIFY(readText(model + QStringLiteral("/model.json")).find("\"simulated_peak_input\": true") !=
                std::string::npos);

        // One job it knows, then an optimizer, a layer list and a first layer the simulation does not.
        const QString jobs = mDir.filePath(QStringLiteral("unsimulated.csv"));
        QVERIFY(writeText(jobs, "Activations-Params,Batch Size,optimizer\n"
                                "\"[('linear', 32, 544), ('ReLU', 32, 0), ('linear', 4, 132)]\",16,adam\n"
                                "\"[('linear', 32, 544), ('ReLU', 32, 0), ('linear', 4, 132)]\",16,lion\n"
                                "[],16,adam\n"
                                "\"[('ReLU', 32, 0), ('linear', 4, 132)]\",16,adam\n"));
        const auto run = runGpumem({"predict", model.toStdString(), jobs.toStdString(), "--on-bad-cell", "drop"});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        std::istringstream lines(run.out);
        std::vector<std::string> rows;
        for (std::string line; std::getline(lines, line);)
            rows.push_back(line);
        QCOMPARE(rows.size(), std::size_t{5});
        QCOMPARE(rows[0], std::string("prediction,extrapolated"));
        for (std::size_t row = 1; row < rows.size(); ++row)
            QVERIFY2(std::isfinite(std::stod(rows[row].substr(0, rows[row].find(',')))), rows[row].c_str());
        QVERIFY2(rows[1].find("allocator simulation") == std::string::npos, rows[1].c_str());
        QVERIFY2(rows[2].find("optimizer 'lion' unseen in training") != std::string::npos, rows[2].c_str());
        QVERIFY2(rows[2].find("the allocator simulation cannot follow this job (unknown optimizer 'lion'") !=
                     std::string::npos,
                 rows[2].c_str());
        for (std::size_t row : {3, 4})
            QVERIFY2(rows[row].find("the allocator simulation cannot follow this job (an MLP layer list must start "
                                    "with a ('linear', outputs, parameters) layer)") != std::string::npos,
                     rows[row].c_str());
        QVERIFY2(run.err.find("jobs lie outside the training data") != std::string::npos, run.err.c_str());
    }

    void aNetworkThatLeftTheSimulationOutMarksNoJobForIt()
    {
        // One training job the simulation cannot follow: the network learns without the input.
        const QString model = mDir.filePath(QStringLiteral("without-simulation"));
        QVERIFY(trainNetwork("unfollowed-training.csv",
                             simulatedJobs(40) + "\"[('ReLU', 32, 0), ('linear', 4, 132)]\",16,adam,950\n", model));
        QVERIFY(readText(model + QStringLiteral("/model.json")).find("\"simulated_peak_input\": false") !=
                std::string::npos);

        const QString jobs = mDir.filePath(QStringLiteral("lion.csv"));
        QVERIFY(writeText(jobs, "Activations-Params,Batch Size,optimizer\n"
                                "\"[('linear', 32, 544), ('ReLU', 32, 0), ('linear', 4, 132)]\",16,lion\n"));
        const auto run = runGpumem({"predict", model.toStdString(), jobs.toStdString()});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        QVERIFY2(run.out.find("optimizer 'lion' unseen in training") != std::string::npos, run.out.c_str());
        QVERIFY2(run.out.find("allocator simulation") == std::string::npos, run.out.c_str());
    }

    void unusableRangesAreRefused_data()
    {
        // ranges replaces the first feature's range, or with wholeList the whole list.
        addColumns<bool, QString, QString>("wholeList", "ranges", "message");
        addRow("minimum above maximum", false, "[5, 1]", "the smaller first");
        addRow("a range of three numbers", false, "[1, 2, 3]", "not 3 numbers");
        addRow("text", false, "[\"a\", 1]", "expected a number");
        addRow("no range for any feature", true, "[]", "feature ranges for");
    }

    void unusableRangesAreRefused()
    {
        const auto [whole, ranges, message] = fetchColumns<bool, QString, QString>("wholeList", "ranges", "message");
        const QString copy = mDir.filePath(QStringLiteral("tampered"));
        QDir(copy).removeRecursively();
        QVERIFY(QDir().mkpath(copy));
        for (const QString &name : QDir(mModel).entryList(QDir::Files))
            QVERIFY(QFile::copy(mModel + QLatin1Char('/') + name, copy + QLatin1Char('/') + name));
        std::string metadata = readText(copy + QStringLiteral("/model.json"));
        const auto begin = metadata.find("\"ranges\"");
        QVERIFY(begin != std::string::npos);
        // The array of ranges (or its first pair) runs from its '[' to the bracket that closes it.
        const auto open = metadata.find('[', whole ? begin : metadata.find('[', begin) + 1);
        std::size_t close = open;
        for (int depth = 0; close < metadata.size(); ++close) {
            depth += metadata[close] == '[' ? 1 : metadata[close] == ']' ? -1 : 0;
            if (depth == 0)
                break;
        }
        QVERIFY(close < metadata.size());
        metadata.replace(open, close + 1 - open, ranges.toStdString());
        QVERIFY(writeText(copy + QStringLiteral("/model.json"), metadata));
        const auto run = runGpumem({"predict", copy.toStdString(), dataFile("jobs_training.csv")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.find(message.toStdString()) != std::string::npos, run.err.c_str());
        QVERIFY2(run.err.find("model.json") != std::string::npos, run.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestPredictExtrapolation)
#include "test_PredictExtrapolation.moc"
