// SPDX-License-Identifier: GPL-3.0-or-later
// Core's messages name parameters; `gpumem` prints them as its flags, the workbench
// as their plain names.

#include "CommandLineRun.h"
#include "RaisedInputError.h"
#include "estimate/EstimateConfiguration.h"
#include "io/InputError.h"
#include "workflows/ParameterFlags.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <set>

using gpumem::estimate::EstimateConfiguration;
using gpumem::io::InputError;
using gpumem::tests::raisedInputError;

namespace {

// Every name core's sources mark with io::parameter("name"…), read from the sources
// themselves, so a parameter added to a message without a flag is caught here.
std::set<std::string> markedParameters()
{
    const QString core = QStringLiteral(GPUMEM_TEST_DATA_DIR "/../../core");
    const QRegularExpression marked(QStringLiteral(R"(\bparameter\(\s*"([a-z_]+)\")"));
    std::set<std::string> names;
    QDirIterator files(core, {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                       QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile file(files.next());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString text = QString::fromUtf8(file.readAll());
        for (auto match = marked.globalMatch(text); match.hasNext();)
            names.insert(match.next().captured(1).toStdString());
    }
    return names;
}

EstimateConfiguration languageModel()
{
    EstimateConfiguration configuration;
    configuration.architecture = "gpt2";
    return configuration;
}

} // namespace

class ParameterFlagsTest : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void everyMarkedParameterHasAFlag()
    {
        const std::set<std::string> names = markedParameters();
        // The estimate's, the probe's and prediction's messages at least.
        for (const char *expected : {"seq_len", "lora_rank", "device", "count", "coverage", "timeline"})
            QVERIFY2(names.count(expected) == 1, expected);
        for (const std::string &name : names) {
            const auto flag = gpumem::workflows::flagOf(name);
            QVERIFY2(flag.has_value(), name.c_str());
            QVERIFY2(flag->rfind("--", 0) == 0, name.c_str());
        }
    }

    void everyFlagIsNamedOnce()
    {
        std::set<std::string_view> parameters;
        for (const auto &entry : gpumem::workflows::parameterFlags()) {
            QVERIFY2(parameters.insert(entry.parameter).second, entry.parameter.data());
            QVERIFY(!entry.meaning.empty());
        }
    }

    void aMessageReadsPlainAndRendersAsFlags()
    {
        // Issue 52: what the workbench shows names the parameter; `gpumem` prints the flag, as before.
        EstimateConfiguration configuration = languageModel();
        configuration.loraTargets = {"q_proj"};
        const InputError error = raisedInputError([&] { configuration.validate(); });
        QCOMPARE(std::string(error.what()), std::string("lora_targets needs lora_rank"));
        QCOMPARE(gpumem::workflows::withFlags(error.markedWhat()), std::string("--lora-targets needs --lora RANK"));
    }

    void theLocationStaysInBothForms()
    {
        const InputError error("t.txt", 0, 0, gpumem::io::parameter("timeline") + " writes FILE.csv or FILE.json");
        QCOMPARE(std::string(error.what()), std::string("t.txt: timeline writes FILE.csv or FILE.json"));
        QCOMPARE(error.message(), std::string("timeline writes FILE.csv or FILE.json"));
        QCOMPARE(gpumem::workflows::withFlags(error.markedWhat()),
                 std::string("t.txt: --timeline writes FILE.csv or FILE.json"));
    }

    void plainMessagesHaveNoFlags_data()
    {
        QTest::addColumn<QString>("field");
        QTest::newRow("float64") << "dtype";
        QTest::newRow("autocast over half weights") << "autocast";
        QTest::newRow("generate in training") << "generate";
        QTest::newRow("qlora without lora") << "qlora";
        QTest::newRow("lora without targets") << "lora";
        QTest::newRow("lora dropout") << "dropout";
        QTest::newRow("gpus for inference") << "gpus";
        QTest::newRow("no sequence") << "seq_len";
        QTest::newRow("torchscript on several gpus") << "torchscript";
    }

    void plainMessagesHaveNoFlags()
    {
        QFETCH(QString, field);
        EstimateConfiguration configuration = languageModel();
        if (field == "dtype")
            configuration.dtype = "float64";
        if (field == "autocast")
            configuration.dtype = "bfloat16", configuration.autocast = "float16";
        if (field == "generate")
            configuration.generatedTokens = 4;
        if (field == "qlora")
            configuration.dtype = "bfloat16", configuration.qlora = true;
        if (field == "lora")
            configuration.loraRank = 8;
        if (field == "dropout")
            configuration.loraDropout = 1.0;
        if (field == "gpus")
            configuration.mode = "inference", configuration.gpus = 2, configuration.sharding = "ddp";
        if (field == "seq_len")
            configuration.sequenceLength = 0;
        if (field == "torchscript")
            configuration.architecture.clear(), configuration.gpus = 2, configuration.sharding = "ddp";
        const InputError error = raisedInputError([&] { configuration.validate(); });
        const std::string plain = error.what();
        QVERIFY2(plain != "no error was raised", plain.c_str());
        QVERIFY2(plain.find("--") == std::string::npos, plain.c_str());
        QVERIFY2(plain.find('\x01') == std::string::npos && plain.find('\x03') == std::string::npos, plain.c_str());
        const std::string flags = gpumem::workflows::withFlags(error.markedWhat());
        QVERIFY2(flags.find("--") != std::string::npos, flags.c_str());
    }

    void theCommandLinePrintsTodaysText_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("line");
        QTest::newRow("seq-len") << QStringList{"estimate", "--config", "gpt2", "--seq-len", "2000"}
                                 << "gpumem estimate: --seq-len give 2000 tokens, more than gpt2's "
                                    "max_position_embeddings of 1024\n";
        QTest::newRow("lora targets") << QStringList{"estimate", "--config", "gpt2", "--lora-targets", "c_attn"}
                                      << "gpumem estimate: --lora-targets needs --lora RANK\n";
        QTest::newRow("qlora") << QStringList{"estimate", "--config", "gpt2", "--qlora", "--dtype", "bfloat16"}
                               << "gpumem estimate: --qlora trains LoRA adapters on the 4-bit base: give --lora "
                                  "RANK and --lora-targets\n";
        QTest::newRow("generate") << QStringList{"estimate", "--config", "gpt2", "--generate", "3"}
                                  << "gpumem estimate: --generate needs --mode inference\n";
        QTest::newRow("dtype") << QStringList{"estimate", "--config", "gpt2", "--dtype", "float64"}
                               << "gpumem estimate: --dtype float64 is not a dtype language models are trained in: "
                                  "take float32, bfloat16 or float16\n";
        // Issue 52: the sweep's plan, the data's roles, the presets and the probe name parameters too.
        const QString jobs = QStringLiteral(GPUMEM_TEST_DATA_DIR "/jobs.csv");
        const QString runs = QDir::temp().filePath(QStringLiteral("gpumem-parameter-flags.jsonl"));
        QTest::newRow("param") << QStringList{"sweep",   jobs,     "--target", "memory_mib",
                                              "--param", "epochs", "--out",    runs}
                               << "gpumem sweep: --param takes NAME=V1,V2,…, not 'epochs'\n";
        QTest::newRow("param twice") << QStringList{"sweep",    jobs,      "--target", "memory_mib", "--param",
                                                    "epochs=1", "--param", "epochs=2", "--out",      runs}
                                     << "gpumem sweep: --param epochs is given twice; list all its values in one\n";
        QTest::newRow("target") << QStringList{"train", jobs, "--target", "nope", "--out", runs}
                                << "gpumem train: " + jobs +
                                       ": --target names no column 'nope'; the columns are: run, batch, optimizer, "
                                       "layers, memory_mib\n";
        QTest::newRow("sequence column")
            << QStringList{"train", jobs, "--target", "memory_mib", "--features", "layers", "--out", runs}
            << "gpumem train: " + jobs +
                   ": column 'layers' holds layer sequences: name it with --sequence-column instead\n";
        QTest::newRow("preset") << QStringList{"describe-model", "--preset", "nope"}
                                << "gpumem describe-model: --preset: no preset named 'nope'; presets: default, fast, "
                                   "gpu, quick\n";
        QTest::newRow("sizes") << QStringList{"probe",   "--family", "mlp",   "--count", "2",
                                              "--sizes", "gpu",      "--out", runs}
                               << "gpumem probe: --sizes gpu on the CPU needs --gpu PROFILE: such jobs are traced and "
                                  "extrapolated, not run at their batch\n";
    }

    void theCommandLinePrintsTodaysText()
    {
        QFETCH(QString, line);
        const Run run = runGpumemRow();
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(QString::fromStdString(run.err), line);
    }
};

QTEST_GUILESS_MAIN(ParameterFlagsTest)
#include "test_ParameterFlags.moc"
