// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandLineRun.h"
#include "DataTables.h"
#include "cli/CommandLine.h"
#include "cli/ErrorMessage.h"
#include "cli/ModelOptions.h"
#include "cli/Warnings.h"
#include "io/InputError.h"

#include <c10/util/Exception.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <thread>

namespace {

// A standard output on a full disk: writes land in a buffer, as a stream's
// buffer takes them, but nothing can ever be delivered (overflow and sync fail).
class FullDeviceBuffer : public std::streambuf
{
  public:
    FullDeviceBuffer() { setp(mBuffer, mBuffer + sizeof mBuffer); }

  protected:
    int_type overflow(int_type) override { return traits_type::eof(); }
    int sync() override { return -1; }

  private:
    char mBuffer[1 << 16];
};

// A realistic c10::Error::what() of LibTorch 1.13: the message, then a backtrace.
const char *const kTorchWhat =
    "PytorchStreamReader failed reading zip archive: failed finding central directory\n"
    "Exception raised from valid at ../caffe2/serialize/inline_container.cc:184 (most recent call first):\n"
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f3a1c2e9617 in "
    "/lib/x86_64-linux-gnu/libc10.so.1.13)\n"
    "frame #1: c10::detail::torchCheckFail(char const*, char const*, unsigned int, char const*) + 0x68 "
    "(0x7f3a1c2b398f in /lib/x86_64-linux-gnu/libc10.so.1.13)\n"
    "frame #2: caffe2::serialize::PyTorchStreamReader::valid(char const*, char const*) + 0x8e (0x7f3a1e0c1a3e in "
    "/lib/x86_64-linux-gnu/libtorch_cpu.so.1.13)\n"
    "frame #3: <unknown function> + 0x1f2c5d0 (0x7f3a1e0c25d0 in /lib/x86_64-linux-gnu/libtorch_cpu.so.1.13)\n"
    "frame #4: __libc_start_main + 0x85 (0x7f3a1b8a1d85 in /lib/x86_64-linux-gnu/libc.so.6)\n";

// An XGBoost error as XGBGetLastError() returns it, after the project's prefix.
const char *const kXgboostMessage =
    "XGBoost could not train: [08:41:07] ../src/objective/regression_obj.cu:118: label must be greater than -1 "
    "for rmsle so that log(label + 1) can be valid.\n"
    "Stack trace:\n"
    "  [bt] (0) /lib/x86_64-linux-gnu/libxgboost.so(+0x1a2f3c) [0x7f0e8a1a2f3c]\n"
    "  [bt] (1) /lib/x86_64-linux-gnu/libxgboost.so(+0x4b81e2) [0x7f0e8a4b81e2]\n"
    "  [bt] (2) /lib/x86_64-linux-gnu/libxgboost.so(XGBoosterUpdateOneIter+0x70) [0x7f0e8a0c3a10]\n"
    "\n";

c10::Error torchError()
{
    try {
        const int size = 6;
        TORCH_CHECK(size == 7, "shape '[7]' is invalid for input of size ", size);
    } catch (const c10::Error &error) {
        return error;
    }
    return c10::Error("unreachable", "");
}

} // namespace

class TestCommandLineContracts : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // --- 1. Unknown names are refused, naming the known ones -------------------

    void unknownHyperparametersAreRefused_data()
    {
        addColumns<QStringList, QString>("arguments", "message");
        const QString jobs = QString::fromStdString(dataFile("jobs.csv"));
        // Regression: each of these was accepted and had no effect.
        addRow("plain --set, network not compared",
               QStringList{"compare", jobs, "--target", "memory_mib", "--models", "ridge", "--set", "bogus=1"},
               "gpumem compare: --set: unknown hyperparameter 'bogus' of bigru_transformer; known: architecture, "
               "layer_tokens, feature_tokens, d_model,");
        addRow(
            "qualified --set, other model trained",
            QStringList{"train", jobs, "--target", "memory_mib", "--out", "unused", "--set", "random_forest.bogus=1"},
            "gpumem train: --set: unknown hyperparameter 'bogus' of random_forest; known: n_estimators, bootstrap,");
        addRow("qualified --set, compared model",
               QStringList{"compare", jobs, "--target", "memory_mib", "--models", "random_forest", "--set",
                           "random_forest.bogus=1"},
               "gpumem compare: --set: unknown hyperparameter 'bogus' of random_forest; known: n_estimators,");
        addRow("a baseline's name without its model",
               QStringList{"train", jobs, "--target", "memory_mib", "--out", "unused", "--model", "random_forest",
                           "--set", "n_estimators=3"},
               "gpumem train: --set: unknown hyperparameter 'n_estimators' of bigru_transformer (for random_forest "
               "write random_forest.n_estimators=VALUE); known: architecture,");
        addRow("unknown model",
               QStringList{"train", jobs, "--target", "memory_mib", "--out", "unused", "--set", "svm.c=1"},
               "gpumem train: --set: unknown model 'svm' in 'svm.c=1'; known: bigru_transformer, decision_tree,");
        addRow("describe-model", QStringList{"describe-model", "--set", "epochz=3"},
               "gpumem describe-model: --set: unknown hyperparameter 'epochz' of bigru_transformer; known:");
    }

    void unknownHyperparametersAreRefused()
    {
        const auto [run, message] = runGpumemRowExpecting("message");
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(run.err.rfind(message.toStdString(), 0) == 0, run.err.c_str());
    }

    void unknownNamesInAConfigFileAreRefused()
    {
        QTemporaryDir folder;
        const std::string config = QDir(folder.path()).filePath("config.json").toStdString();
        QVERIFY(gpumem::tests::writeFile(QString::fromStdString(config), "{\"epochs\": 2, \"epoch_count\": 3}"));
        // Regression: ignored whenever the network was not among the models.
        const Run run = runGpumem(
            {"compare", dataFile("jobs.csv"), "--target", "memory_mib", "--models", "ridge", "--config", config});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        const std::string expected = "gpumem compare: " + config +
                                     ": unknown hyperparameter 'epoch_count' of bigru_transformer; known: architecture";
        QVERIFY2(run.err.rfind(expected, 0) == 0, run.err.c_str());
    }

    void knownQualifiedAssignmentsStillApply()
    {
        gpumem::cli::ModelOptions options;
        options.assignments = {"epochs=7", "random_forest.n_estimators=9"};
        QCOMPARE(gpumem::cli::hyperparametersFor("bigru_transformer", options).integer("epochs"), std::int64_t{7});
        QCOMPARE(gpumem::cli::hyperparametersFor("random_forest", options).integer("n_estimators"), std::int64_t{9});
    }

    // --- 2. Every error is one line; --verbose adds the detail -----------------

    void firstMeaningfulLineCutsTraces_data()
    {
        addColumns<QString, QString>("text", "line");
        addRow("LibTorch what()", kTorchWhat,
               "PytorchStreamReader failed reading zip archive: failed finding central "
               "directory");
        addRow("XGBoost", kXgboostMessage,
               "XGBoost could not train: ../src/objective/regression_obj.cu:118: label must be "
               "greater than -1 for rmsle so that log(label + 1) can be valid.");
        addRow("XGBoost, bare",
               "[23:59:01] ../src/learner.cc:1073: Check failed: mparam_.num_feature != 0 (0 vs. 0)\nStack trace:\n"
               "  [bt] (0) /lib/libxgboost.so(+0x1a2f3c) [0x7f0e8a1a2f3c]\n",
               "../src/learner.cc:1073: Check failed: mparam_.num_feature != 0 (0 vs. 0)");
        addRow("leading blank lines", "\n  \nUnknown builtin op: aten::foo.\n  More detail\n",
               "Unknown builtin op: aten::foo.");
        addRow("only a trace", "Exception raised from f at a.cc:1 (most recent call first):\nframe #0: x\n", "");
        addRow("one line", "data.csv:3:2: missing value", "data.csv:3:2: missing value");
    }

    void firstMeaningfulLineCutsTraces()
    {
        QFETCH(QString, text);
        QFETCH(QString, line);
        QCOMPARE(QString::fromStdString(gpumem::cli::firstMeaningfulLine(text.toStdString())), line);
    }

    void torchErrorsPrintOneLine()
    {
        const c10::Error error = torchError();
        std::ostringstream quiet;
        gpumem::cli::printError(quiet, "train", error, false);
        QCOMPARE(quiet.str(), std::string("gpumem train: LibTorch: shape '[7]' is invalid for input of size 6\n"));

        std::ostringstream verbose;
        gpumem::cli::printError(verbose, "train", error, true);
        QVERIFY2(verbose.str().rfind(quiet.str(), 0) == 0, verbose.str().c_str());
        QVERIFY2(gpumem::tests::contains(verbose.str().substr(quiet.str().size()), error.what()),
                 verbose.str().c_str());
    }

    void wrappedTracesPrintOneLine()
    {
        // Errors that carry a trace inside another exception's message.
        std::ostringstream err;
        gpumem::cli::printError(err, "compare", gpumem::io::InputError(kXgboostMessage), false);
        QCOMPARE(err.str(), std::string("gpumem compare: XGBoost could not train: ../src/objective/regression_obj."
                                        "cu:118: label must be greater than -1 for rmsle so that log(label + 1) can "
                                        "be valid.\n"));
        std::ostringstream internal;
        gpumem::cli::printError(internal, "predict", std::runtime_error(kTorchWhat), false);
        QCOMPARE(lineCount(internal.str()), 1);
        QVERIFY2(internal.str().rfind("gpumem predict: internal error: PytorchStreamReader failed", 0) == 0,
                 internal.str().c_str());
        std::ostringstream verbose;
        gpumem::cli::printError(verbose, "predict", std::runtime_error(kTorchWhat), true);
        QCOMPARE(lineCount(verbose.str()), 1 + lineCount(kTorchWhat));
    }

    void verboseIsAcceptedBeforeAndAfterTheCommand()
    {
        for (const auto &arguments : std::vector<std::vector<std::string>>{
                 {"--verbose", "inspect", dataFile("ragged.csv")}, {"inspect", dataFile("ragged.csv"), "--verbose"}}) {
            const Run run = runGpumem(arguments);
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.rfind("gpumem inspect: " + dataFile("ragged.csv") + ":3:3: row has 2 fields", 0) == 0,
                     run.err.c_str());
            QCOMPARE(lineCount(run.err), 1); // an input error has no more detail
        }
        const Run good = runGpumem({"--verbose", "inspect", dataFile("jobs.csv")});
        QCOMPARE(good.exitCode, 0);
        QVERIFY(gpumem::tests::contains(runGpumem({"--help"}).out, "--verbose"));
    }

    // Issue 24: an error about a path holding a newline was cut at the newline.
    void aPathWithANewlineStaysOnTheErrorLine()
    {
        QTemporaryDir folder;
        const std::string path = folder.filePath("no\nsuch.csv").toStdString();
        const Run run = runGpumem({"inspect", path});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(lineCount(run.err), 1);
        QVERIFY2(gpumem::tests::contains(run.err, folder.filePath("no\\nsuch.csv").toStdString()), run.err.c_str());
    }

    // --- 3. A result that cannot be written fails the command ------------------

    void writeErrorsOnStandardOutputFail()
    {
        // Regression: `gpumem inspect --json jobs.csv > /dev/full` exited 0.
        for (const auto &arguments : std::vector<std::vector<std::string>>{
                 {"inspect", "--json", dataFile("jobs.csv")}, {"inspect", "--help"}, {"--version"}}) {
            FullDeviceBuffer full;
            std::ostream out(&full);
            std::ostringstream err;
            const int exitCode = gpumem::cli::runCommandLine(arguments, out, err);
            QCOMPARE(exitCode, 1);
            const std::string command = arguments.front() == "--version" ? "" : " inspect";
            QCOMPARE(err.str(), "gpumem" + command + ": cannot write to standard output\n");
        }
    }

    // --- 5. probe refuses what it cannot do, up front ----------------------------

    void probeRefusesCudaWithoutCuda()
    {
        QTemporaryDir folder;
        const std::string path = QDir(folder.path()).filePath("jobs.csv").toStdString();
        const Run run = runGpumem({"probe", "--family", "mlp", "--count", "2", "--out", path, "--device", "cuda"});
        if (run.exitCode == 0)
            QSKIP("this build measures on CUDA");
        // Regression: exited 0 with every row invalid.
        QCOMPARE(run.err, std::string("gpumem probe: --device cuda: CUDA is not available (no device, or a LibTorch "
                                      "without CUDA); use --device cpu\n"));
        QVERIFY(!QFile::exists(QString::fromStdString(path)));
        QVERIFY(!QFile::exists(QString::fromStdString(path + ".partial")));
    }

    void probeRefusesAMalformedPartialFile()
    {
        QTemporaryDir folder;
        const QString path = QDir(folder.path()).filePath("jobs.csv");
        const Run first =
            runGpumem({"probe", "--family", "mlp", "--count", "2", "--steps", "1", "--out", path.toStdString()});
        QCOMPARE(first.exitCode, 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite | QIODevice::Append));
        file.write("mlp,64,adam\n");
        file.close();
        const QByteArray before = [&] {
            QFile read(path);
            return read.open(QIODevice::ReadOnly) ? read.readAll() : QByteArray();
        }();
        const Run resumed = runGpumem(
            {"probe", "--family", "mlp", "--count", "3", "--steps", "1", "--out", path.toStdString(), "--resume"});
        QCOMPARE(resumed.exitCode, 1);
        QCOMPARE(resumed.err, "gpumem probe: " + path.toStdString() + ":4:4: row has 3 fields, the header has 23\n");
        QFile after(path);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), before);
    }

    // --- 6. Thread counts are capped at the hardware -----------------------------

    void threadsAndJobsAreCappedAtTheHardware()
    {
        const auto hardware = std::max(1u, std::thread::hardware_concurrency());
        gpumem::cli::ComputeOptions parsed;
        parsed.threads = 1000;
        parsed.jobs = 5000;
        std::ostringstream warnings;
        gpumem::models::ComputeSettings compute;
        {
            const gpumem::cli::ScopedWarningStream scope(warnings);
            compute = gpumem::cli::computeSettingsFrom(parsed);
        }
        QCOMPARE(compute.threads, static_cast<int>(hardware));
        const std::string count = std::to_string(hardware);
        QCOMPARE(warnings.str(), "warning: --threads 1000 is more than this machine's " + count +
                                     " hardware threads; using " + count +
                                     "\nwarning: --jobs 5000 is more than this "
                                     "machine's " +
                                     count + " hardware threads; running at most " + count + " fits at once\n");

        // Within the hardware: no warning, the count as given.
        gpumem::cli::ComputeOptions one;
        one.threads = 1;
        std::ostringstream none;
        const gpumem::cli::ScopedWarningStream scope(none);
        QCOMPARE(gpumem::cli::computeSettingsFrom(one).threads, 1);
        QVERIFY(none.str().empty());
    }

    void compareWarnsOnceAndFinishesWithTooManyThreads()
    {
        // Regression: --threads 1000 on 100 rows took minutes.
        const Run run = runGpumem({"compare", dataFile("jobs.csv"), "--target", "memory_mib", "--models", "ridge",
                                   "--folds", "2", "--threads", "1000", "--jobs", "1000"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(gpumem::tests::contains(run.err, "warning: --threads 1000 is more than this machine's"),
                 run.err.c_str());
        QVERIFY2(gpumem::tests::contains(run.err, "warning: --jobs 1000 is more than this machine's"), run.err.c_str());
    }

    // --- 7. User-caused conditions read as such, not as internal errors ----------

    void tooFewRowsAreInputErrors()
    {
        QTemporaryDir folder;
        const std::string path = QDir(folder.path()).filePath("one.csv").toStdString();
        QVERIFY(gpumem::tests::writeFile(QString::fromStdString(path), "batch,memory_mib\n32,1545\n"));
        // Regression: "internal error: holdOutSplit: need at least 2 rows to hold some out, got 1".
        const Run train = runGpumem({"train", path, "--target", "memory_mib", "--model", "ridge", "--out",
                                     QDir(folder.path()).filePath("model").toStdString(), "--test-fraction", "0.5"});
        QCOMPARE(train.exitCode, 1);
        QCOMPARE(train.err, std::string("gpumem train: a hold-out split needs at least 2 rows, one to train on and "
                                        "one to test on; the data has 1\n"));
        // Regression: "5-fold cross-validation needs 2 to 1 folds (one per row at most)".
        const Run compare = runGpumem({"compare", path, "--target", "memory_mib", "--models", "ridge"});
        QCOMPARE(compare.exitCode, 1);
        QCOMPARE(compare.err, std::string("gpumem compare: 5-fold cross-validation needs at least 5 rows, the data "
                                          "has 1; use fewer folds\n"));
        const Run oneFold = runGpumem({"compare", path, "--target", "memory_mib", "--models", "ridge", "--folds", "1"});
        QCOMPARE(oneFold.err, std::string("gpumem compare: cross-validation needs at least 2 folds, not 1\n"));
    }
};

QTEST_GUILESS_MAIN(TestCommandLineContracts)
#include "test_CommandLineContracts.moc"
