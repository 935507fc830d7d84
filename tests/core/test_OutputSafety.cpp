// SPDX-License-Identifier: GPL-3.0-or-later
// No output of gpumem may destroy what the user has: inputs, folders it did not write, device nodes.
#include "CommandLineRun.h"
#include "DataTables.h"
#include "FileSystemHazards.h"
#include "io/TemporaryPaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace {

const std::string trainingData = GPUMEM_TEST_DATA_DIR "/jobs_training.csv";

QByteArray contentOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

// Every file under folder (recursively, hidden ones too) with its content.
std::map<QString, QByteArray> snapshot(const QString &folder)
{
    std::map<QString, QByteArray> files;
    const QDir root(folder);
    const auto entries = root.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &entry : entries) {
        if (entry.isDir() && !entry.isSymLink()) {
            for (const auto &[name, content] : snapshot(entry.filePath()))
                files[entry.fileName() + '/' + name] = content;
            files[entry.fileName() + '/'] = QByteArray();
        } else {
            files[entry.fileName()] = entry.isSymLink() ? entry.symLinkTarget().toUtf8() : contentOf(entry.filePath());
        }
    }
    return files;
}

bool isOneLine(const std::string &text)
{
    return !text.empty() && text.back() == '\n' && text.find('\n') == text.size() - 1;
}

// Whether stderr, after any progress lines, ends with exactly one error line.
bool endsWithOneError(const std::string &text)
{
    const std::size_t start = text.rfind('\n', text.size() - 2);
    const std::string last = text.substr(start == std::string::npos ? 0 : start + 1);
    return isOneLine(last) && last.rfind("gpumem ", 0) == 0 && text.find("gpumem ") == text.size() - last.size();
}

std::vector<std::string> trainArguments(const std::string &data, const std::string &out, const char *model = "ridge")
{
    return {"train", data, "--target", "memory_mib", "--model", model, "--out", out};
}

std::string path(const QTemporaryDir &folder, const char *name)
{
    return folder.filePath(QString::fromUtf8(name)).toStdString();
}

} // namespace

class TestOutputSafety : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void trainRefusesToReplaceAFolderThatIsNotAModelFolder()
    {
        // The bug: --out onto an existing project folder moved it aside and deleted it, exit 0.
        QTemporaryDir scratch;
        const QString project = scratch.filePath("proj");
        QVERIFY(QDir().mkpath(project + "/notes"));
        QVERIFY(writeFile(project + "/jobs.csv", contentOf(QString::fromStdString(trainingData))));
        QVERIFY(writeFile(project + "/README", "my project\n"));
        QVERIFY(writeFile(project + "/notes/todo.txt", "keep me"));
        const auto before = snapshot(scratch.path());

        const Run run = runGpumem(trainArguments(trainingData, project.toStdString()));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(isOneLine(run.err), run.err.c_str());
        QVERIFY2(run.err.find("exists and is not a gpumem model folder") != std::string::npos, run.err.c_str());
        QVERIFY2(run.out.empty(), "the check must come before the training");
        QVERIFY(snapshot(scratch.path()) == before);
    }

    void trainRefusesAFolderWhoseModelJsonLacksTheMarker()
    {
        QTemporaryDir scratch;
        const QString folder = scratch.filePath("other");
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(writeFile(folder + "/model.json", R"({"format": "someone-else", "model": "ridge"})"));
        const auto before = snapshot(scratch.path());
        const Run run = runGpumem(trainArguments(trainingData, folder.toStdString()));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.find("not a gpumem model folder") != std::string::npos, run.err.c_str());
        QVERIFY(snapshot(scratch.path()) == before);
    }

    void trainReplacesAnEarlierModelFolder()
    {
        QTemporaryDir scratch;
        const std::string model = path(scratch, "model");
        QCOMPARE(runGpumem(trainArguments(trainingData, model, "decision_tree")).exitCode, 0);
        QVERIFY(contentOf(scratch.filePath("model/model.json")).contains("\"decision_tree\""));

        const Run run = runGpumem(trainArguments(trainingData, model, "ridge"));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.find("gpumem") == std::string::npos, run.err.c_str());
        QVERIFY(contentOf(scratch.filePath("model/model.json")).contains("\"ridge\""));
        QCOMPARE(QDir(scratch.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{"model"});
    }

    void trainRefusesAModelFolderHoldingFilesOfTheUsers_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("named");
        // The bug: a model folder that also held the user's notes and results was replaced whole, exit 0.
        QTest::newRow("a note") << "NOTES.txt"
                                << "NOTES.txt";
        QTest::newRow("a sub-folder") << "results/run1.csv"
                                      << "results";
    }
    void trainRefusesAModelFolderHoldingFilesOfTheUsers()
    {
        QFETCH(QString, extra);
        QFETCH(QString, named);
        QTemporaryDir scratch;
        const std::string model = path(scratch, "mf");
        QCOMPARE(runGpumem(trainArguments(trainingData, model, "decision_tree")).exitCode, 0);
        QVERIFY(QDir().mkpath(QFileInfo(scratch.filePath("mf/" + extra)).path()));
        QVERIFY(writeFile(scratch.filePath("mf/" + extra), "the user's own"));
        const auto before = snapshot(scratch.path());

        const Run run = runGpumem(trainArguments(trainingData, model, "ridge"));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(isOneLine(run.err), run.err.c_str());
        QVERIFY2(run.err.find("holds '" + named.toStdString() + "', which gpumem did not write") != std::string::npos,
                 run.err.c_str());
        QVERIFY2(run.out.empty(), "the check must come before the training");
        QVERIFY(snapshot(scratch.path()) == before);
    }

    void trainUsesAnEmptyFolder()
    {
        QTemporaryDir scratch;
        QVERIFY(QDir().mkpath(scratch.filePath("empty")));
        const Run run = runGpumem(trainArguments(trainingData, path(scratch, "empty"), "decision_tree"));
        QCOMPARE(run.exitCode, 0);
        QVERIFY(QFile::exists(scratch.filePath("empty/model.json")));
    }

    void trainThroughASymlinkReplacesTheTargetAndKeepsTheLink()
    {
        QTemporaryDir scratch;
        const std::string target = path(scratch, "real-model");
        QCOMPARE(runGpumem(trainArguments(trainingData, target, "decision_tree")).exitCode, 0);
        QVERIFY(QFile::link(scratch.filePath("real-model"), scratch.filePath("latest")));
        QCOMPARE(runGpumem(trainArguments(trainingData, path(scratch, "latest"), "ridge")).exitCode, 0);
        QVERIFY(QFileInfo(scratch.filePath("latest")).isSymLink());
        QVERIFY(contentOf(scratch.filePath("real-model/model.json")).contains("\"ridge\""));
    }

    void treeModelsReportTheirFitTime()
    {
        // The bug: tree models printed " in 0s on cpu" (they have no epochs).
        QTemporaryDir scratch;
        const Run run = runGpumem(trainArguments(trainingData, path(scratch, "tree"), "decision_tree"));
        QCOMPARE(run.exitCode, 0);
        const std::string firstLine = run.out.substr(0, run.out.find('\n'));
        QVERIFY2(firstLine.rfind("fitted decision_tree on 80 rows in ", 0) == 0, firstLine.c_str());
        QVERIFY2(firstLine.size() > 2 && firstLine.compare(firstLine.size() - 2, 2, " s") == 0, firstLine.c_str());
        QVERIFY2(firstLine.find("best epoch") == std::string::npos, firstLine.c_str());
    }

    void outputsOntoInputsAreRefused_data()
    {
        addColumns<QStringList, QString>("arguments", "expected");
        const QStringList compare{"compare", "{d}", "--target", "memory_mib", "--models", "ridge", "--folds", "2"};
        const QStringList train{"train", "{d}", "--target", "memory_mib", "--model", "ridge"};
        addRow("report is the data", (compare + QStringList{"--report", "{dir}/d.csv"}),
               "--report would overwrite the input DATA.csv");
        addRow("report is the data by another name", (compare + QStringList{"--report", "{dir}/sub/.././d.csv"}),
               "would overwrite the input DATA.csv");
        addRow("report is a symlink to the data", (compare + QStringList{"--report", "{dir}/link.csv"}),
               "would overwrite the input DATA.csv");
        addRow("compare predictions are the data", (compare + QStringList{"--predictions", "{d}"}),
               "--predictions would overwrite the input DATA.csv");
        addRow("train predictions are the data",
               (train + QStringList{"--out", "{dir}/new-model", "--predictions", "{d}"}),
               "--predictions would overwrite the input DATA.csv");
        addRow("train out is the data", (train + QStringList{"--out", "{d}"}),
               "--out would overwrite the input DATA.csv");
        addRow("train out holds the data", (train + QStringList{"--out", "{dir}"}),
               "--out would replace the folder that holds the input DATA.csv");
        addRow("predict out is the data", QStringList{"predict", "{model}", "{d}", "--out", "{d}"},
               "--out would overwrite the input DATA.csv");
        addRow("predict out is inside the model", QStringList{"predict", "{model}", "{d}", "--out", "{model}/p.csv"},
               "--out lies inside the input MODEL_DIR");
        addRow("predict out is the model", QStringList{"predict", "{model}", "{d}", "--out", "{model}"},
               "is a folder; give a file name");
        addRow("two reports at one path",
               (compare + QStringList{"--report", "{dir}/x.html", "--report", "{dir}/./x.html"}),
               "given twice as --report");
        addRow("report and predictions at one path",
               (compare + QStringList{"--report", "{dir}/x.csv", "--predictions", "{dir}/x.csv"}),
               "given as both --report and --predictions");
        addRow("train predictions inside the new model",
               (train + QStringList{"--out", "{model}", "--predictions", "{model}/p.csv"}),
               "--predictions and --out overlap");
        addRow("output folder missing", (compare + QStringList{"--report", "{dir}/missing/r.json"}), "does not exist");
        addRow("report is a folder", (compare + QStringList{"--report", "{dir}/sub.json"}),
               "is a folder; give a file name");
    }

    void outputsOntoInputsAreRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        QTemporaryDir scratch;
        const QString data = scratch.filePath("data/d.csv");
        QVERIFY(QDir().mkpath(scratch.filePath("data/sub")));
        QVERIFY(QDir().mkpath(scratch.filePath("data/sub.json")));
        QVERIFY(writeFile(data, contentOf(QString::fromStdString(trainingData))));
        QVERIFY(QFile::link(data, scratch.filePath("data/link.csv")));
        const QString model = scratch.filePath("model");
        QCOMPARE(runGpumem(trainArguments(trainingData, model.toStdString(), "decision_tree")).exitCode, 0);
        const auto before = snapshot(scratch.path());

        std::vector<std::string> command;
        for (QString argument : arguments)
            command.push_back(argument.replace("{dir}", scratch.filePath("data"))
                                  .replace("{d}", data)
                                  .replace("{model}", model)
                                  .toStdString());
        const Run run = runGpumem(command);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(isOneLine(run.err), run.err.c_str());
        QVERIFY2(run.err.find(expected.toStdString()) != std::string::npos, run.err.c_str());
        QVERIFY2(run.out.empty(), run.out.c_str());
        QVERIFY(snapshot(scratch.path()) == before);
    }

    void reportsGoToDevicesAndLeaveThemDevices()
    {
        if (::access("/dev/null", W_OK) != 0)
            QSKIP("/dev/null is not writable here");
        QTemporaryDir scratch;
        const Run run =
            runGpumem({"compare", trainingData, "--target", "memory_mib", "--models", "ridge", "--folds", "2",
                       "--report", "/dev/null", "--report", path(scratch, "r.json"), "--predictions", "/dev/null"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.find("gpumem") == std::string::npos, run.err.c_str());
        struct stat info = {};
        QCOMPARE(::stat("/dev/null", &info), 0);
        QVERIFY(S_ISCHR(info.st_mode));
        QVERIFY(contentOf(scratch.filePath("r.json")).startsWith("{"));
        QCOMPARE(QDir("/dev").entryList({"null.tmp-*"}, QDir::AllEntries | QDir::System), QStringList());
    }

    void reportThroughASymlinkWritesTheTarget()
    {
        QTemporaryDir scratch;
        QVERIFY(writeFile(scratch.filePath("target.md"), "old"));
        QVERIFY(QFile::link(scratch.filePath("target.md"), scratch.filePath("link.md")));
        const Run run = runGpumem({"compare", trainingData, "--target", "memory_mib", "--models", "ridge", "--folds",
                                   "2", "--report", path(scratch, "link.md")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(QFileInfo(scratch.filePath("link.md")).isSymLink());
        QVERIFY(contentOf(scratch.filePath("target.md")).contains("ridge"));
        QCOMPARE(QDir(scratch.path()).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot),
                 (QStringList{"link.md", "target.md"}));
    }

    void aFullDiskDuringASaveKeepsTheOldModel()
    {
        QTemporaryDir scratch;
        const std::string model = path(scratch, "model");
        QCOMPARE(runGpumem(trainArguments(trainingData, model, "decision_tree")).exitCode, 0);
        const auto before = snapshot(scratch.path());

        const Run run = [&] {
            const gpumem::tests::FileSizeLimit fullDisk(512);
            return runGpumem(trainArguments(trainingData, model, "ridge"));
        }();

        QCOMPARE(run.exitCode, 1);
        QVERIFY2(endsWithOneError(run.err), run.err.c_str());
        QVERIFY2(run.err.find("disk full?") != std::string::npos, run.err.c_str());
        QVERIFY(snapshot(scratch.path()) == before);
    }

    void aFileSizeLimitFailsTrainAndPredictWithoutLeftovers()
    {
        // The bug: under `ulimit -f`, train and predict died by SIGXFSZ (exit 153) and left their
        // temporary files and folders behind. main() installs the same signal handling.
        QTemporaryDir scratch;
        const std::string model = path(scratch, "model");
        QCOMPARE(runGpumem(trainArguments(trainingData, model, "decision_tree")).exitCode, 0);
        const std::string predictions = path(scratch, "predictions.csv");
        QCOMPARE(runGpumem({"predict", model, trainingData, "--out", predictions}).exitCode, 0);
        const auto before = snapshot(scratch.path());

        gpumem::io::removeTemporaryPathsOnSignals();
        const auto [train, predict] = [&] {
            const gpumem::tests::FileSizeLimit fullDisk(512, gpumem::tests::FileSizeLimit::LeaveSignal);
            return std::pair(runGpumem(trainArguments(trainingData, model, "ridge")),
                             runGpumem({"predict", model, trainingData, "--out", predictions}));
        }();

        for (const Run &run : {train, predict}) {
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(endsWithOneError(run.err), run.err.c_str());
            QVERIFY2(run.err.find("cannot write") != std::string::npos, run.err.c_str());
        }
        QVERIFY(snapshot(scratch.path()) == before);
    }
};

QTEST_GUILESS_MAIN(TestOutputSafety)
#include "test_OutputSafety.moc"
