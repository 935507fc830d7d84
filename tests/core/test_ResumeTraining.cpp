// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandLineRun.h"
#include "DataTables.h"

#include "io/AtomicFileWriter.h"
#include "io/RegularFile.h"
#include "io/SafeTensors.h"
#include "io/Sha256.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace {

// A schedule that does not depend on the planned number of epochs, and no
// validation rows: then 2 + 2 epochs follow exactly the steps of 4.
const std::vector<std::string> kExactSettings{
    "--preset", "fast", "--set", "schedule=constant", "--set", "warmup_fraction=0", "--set", "validation_fraction=0"};

std::string readFile(const std::string &path)
{
    return gpumem::io::readRegularFile(path, 1u << 30);
}

// The float32 values of every tensor of a safetensors file, by name.
std::map<std::string, std::vector<float>> floatTensors(const std::string &path)
{
    const auto file = gpumem::io::SafeTensorsFile::parse(readFile(path), path);
    std::map<std::string, std::vector<float>> tensors;
    for (const auto &record : file.tensors()) {
        if (record.dtype != "F32")
            continue;
        std::vector<float> values(static_cast<std::size_t>(record.elementCount()));
        std::memcpy(values.data(), file.data(record), values.size() * sizeof(float));
        tensors[record.name] = values;
    }
    return tensors;
}

// The epoch events of a --json training: epoch number → training loss.
std::map<int, double> epochLosses(const std::string &jsonLines)
{
    std::map<int, double> losses;
    for (const QString &line : QString::fromStdString(jsonLines).split('\n', Qt::SkipEmptyParts)) {
        const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
        if (event.value("event").toString() == QStringLiteral("epoch"))
            losses[event.value("epoch").toInt()] = event.value("train_loss").toDouble();
    }
    return losses;
}

QJsonObject lastEvent(const std::string &jsonLines)
{
    const QStringList lines = QString::fromStdString(jsonLines).split('\n', Qt::SkipEmptyParts);
    return lines.isEmpty() ? QJsonObject() : QJsonDocument::fromJson(lines.last().toUtf8()).object();
}

// Replaces the size and digest model.json records for file with those of its current content.
void rerecord(const std::string &folder, const std::string &file)
{
    const std::string content = readFile(folder + "/" + file);
    QString json = QString::fromStdString(readFile(folder + "/model.json"));
    const QRegularExpression entry(
        "(\"" + QRegularExpression::escape(QString::fromStdString(file)) +
        "\"\\s*:\\s*\\{\\s*\"bytes\"\\s*:\\s*)\\d+(\\s*,\\s*\"sha256\"\\s*:\\s*\")[0-9a-f]+");
    const QRegularExpressionMatch match = entry.match(json);
    QVERIFY(match.hasMatch());
    json.replace(match.capturedStart(), match.capturedLength(),
                 match.captured(1) + QString::number(content.size()) + match.captured(2) +
                     QString::fromStdString(gpumem::io::sha256Hex(content)));
    gpumem::io::writeFileAtomically(folder + "/model.json", json.toStdString());
}

} // namespace

// `gpumem train --resume-from`: the model folder holds the optimizer with the
// weights, and a continued run is the run that never stopped.
class TestResumeTraining : public QObject
{
    Q_OBJECT

  private:
    QTemporaryDir mFolder;
    std::string mData;

    std::string path(const char *name) const { return mFolder.filePath(QString::fromLatin1(name)).toStdString(); }

    Run train(const std::vector<std::string> &options, const std::string &out) const
    {
        return runGpumem(withArguments({"train", mData, "--target", "memory", "--json", "--out", out}, options));
    }

  private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mFolder.isValid());
        mData = path("jobs.csv");
        std::string csv = "batch,optimizer,layers,memory\n";
        for (int row = 0; row < 48; ++row)
            csv += std::to_string(8 * (row % 6 + 1)) + (row % 3 ? ",adam," : ",sgd,") + "\"[('linear', " +
                   std::to_string(10 + row) + ", 100), ('ReLU', 10, 0)]\"," + std::to_string(1000 + 7 * row) + "\n";
        gpumem::io::writeFileAtomically(mData, csv);
    }

    void twoPlusTwoEpochsAreFourEpochs()
    {
        const Run straight = train(withArguments(kExactSettings, {"--set", "epochs=4"}), path("straight"));
        QCOMPARE(straight.exitCode, 0);
        const Run first = train(withArguments(kExactSettings, {"--set", "epochs=2"}), path("first"));
        QCOMPARE(first.exitCode, 0);
        QVERIFY(QFile::exists(QString::fromStdString(path("first") + "/optimizer.safetensors")));
        const Run resumed = train({"--resume-from", path("first"), "--epochs", "4"}, path("resumed"));
        QVERIFY2(resumed.exitCode == 0, resumed.err.c_str());

        // The continued curve picks up at epoch 3 with the straight run's losses.
        const auto straightLosses = epochLosses(straight.out);
        const auto resumedLosses = epochLosses(resumed.out);
        QCOMPARE(resumedLosses.size(), std::size_t{2});
        QCOMPARE(resumedLosses.begin()->first, 3);
        for (const auto &[epoch, loss] : resumedLosses)
            QVERIFY2(std::abs(loss - straightLosses.at(epoch)) <= 1e-6 * std::abs(loss),
                     qPrintable(QString::number(epoch)));
        const QJsonObject summary = lastEvent(resumed.out);
        QCOMPARE(summary.value("epochs_before").toInt(), 2);
        QCOMPARE(summary.value("best_epoch").toInt(), 4);

        // Same weights and optimizer moments as the straight run, within float tolerance.
        for (const char *file : {"/weights.safetensors", "/optimizer.safetensors"}) {
            const auto expected = floatTensors(path("straight") + file);
            const auto actual = floatTensors(path("resumed") + file);
            QCOMPARE(actual.size(), expected.size());
            for (const auto &[name, values] : expected) {
                const std::vector<float> &got = actual.at(name);
                QCOMPARE(got.size(), values.size());
                for (std::size_t i = 0; i < values.size(); ++i)
                    QVERIFY2(std::abs(got[i] - values[i]) <= 1e-5f * (1.0f + std::abs(values[i])), name.c_str());
            }
        }
        // The continued model predicts like any other.
        QCOMPARE(runGpumem({"predict", path("resumed"), mData}).exitCode, 0);
    }

    void aValidatedOneCycleRunContinuesItsEpochs()
    {
        const Run first = train({"--preset", "fast", "--set", "epochs=2"}, path("cycle"));
        QCOMPARE(first.exitCode, 0);
        const Run resumed = train({"--resume-from", path("cycle"), "--epochs", "3"}, path("cycle-more"));
        QVERIFY2(resumed.exitCode == 0, resumed.err.c_str());
        const auto losses = epochLosses(resumed.out);
        QCOMPARE(losses.size(), std::size_t{1});
        QCOMPARE(losses.begin()->first, 3);
        QVERIFY(std::isfinite(losses.begin()->second));
        const std::string model = readFile(path("cycle-more") + "/model.json");
        QVERIFY2(model.find("\"epochs\": 3") != std::string::npos, model.c_str());
    }

    void refusesWhatTheStoppedRunDidNotUse_data()
    {
        addColumns<QStringList, QString>("options", "expected");
        addRow("a hyperparameter", QStringList{"--epochs", "4", "--set", "learning_rate=0.1"},
               "--resume-from keeps the model's own hyperparameters");
        addRow("a preset", QStringList{"--epochs", "4", "--preset", "gpu"}, "leave out --preset");
        addRow("other columns", QStringList{"--epochs", "4", "--ignore", "optimizer"},
               "the data's columns differ from those the model was trained on");
        addRow("other rows", QStringList{"--epochs", "4", "--test-fraction", "0.25"}, "the training rows differ");
        addRow("another seed", QStringList{"--epochs", "4", "--seed", "7"}, "differs from the seed 42");
        addRow("no more epochs", QStringList{"--epochs", "2"}, "has trained 2 epochs");
        addRow("another model", QStringList{"--epochs", "4", "--model", "ridge"}, "fits in one go");
        addRow("a calibration", QStringList{"--epochs", "4", "--coverage", "0.9"},
               "--coverage cannot be combined with --resume-from");
    }

    void refusesWhatTheStoppedRunDidNotUse()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, expected);
        std::vector<std::string> arguments{"--resume-from", path("first")};
        for (const QString &option : options)
            arguments.push_back(option.toStdString());
        const Run run = train(arguments, path("refused"));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.find(expected.toStdString()) != std::string::npos, run.err.c_str());
        QCOMPARE(std::count(run.err.begin(), run.err.end(), '\n'), 1);
        QVERIFY(!QFile::exists(QString::fromStdString(path("refused"))));
    }

    void aTamperedOptimizerFileIsRefused()
    {
        QVERIFY(QDir().mkpath(QString::fromStdString(path("tampered"))));
        for (const char *file : {"model.json", "weights.safetensors", "optimizer.safetensors"})
            QVERIFY(QFile::copy(QString::fromStdString(path("first") + "/" + file),
                                QString::fromStdString(path("tampered") + "/" + file)));
        std::string bytes = readFile(path("tampered") + "/optimizer.safetensors");
        bytes[bytes.size() - 3] ^= 0x40; // one bit of the last moment
        gpumem::io::writeFileAtomically(path("tampered") + "/optimizer.safetensors", bytes);
        for (const Run &run : {train({"--resume-from", path("tampered"), "--epochs", "4"}, path("refused")),
                               runGpumem({"predict", path("tampered"), mData})}) {
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.find("optimizer.safetensors") != std::string::npos, run.err.c_str());
            QCOMPARE(std::count(run.err.begin(), run.err.end(), '\n'), 1);
        }
    }

    // Even with model.json re-recording its digest, the optimizer file is checked as hostile input.
    void aHostileOptimizerFileIsRefused_data()
    {
        addColumns<QString, QString, bool>("change", "expected", "namesTheFile");
        addRow("a moment of the wrong shape", "shape", "feature_weight.exp_avg' is F32 [1], not F32", true);
        addRow("a negative second moment", "negative", "holds a value no training produces", true);
        addRow("no epochs done", "epochs", "metadata 'epochs_done' is '0'", true);
        addRow("another optimizer", "optimizer", "holds the state of optimizer 'adam'", true);
        addRow("a tensor too many", "extra", "holds a tensor 'extra' that the network does not have", true);
        // Issue 24: a step count at the limit loaded, and the continued run saved a folder that predict refused.
        addRow("steps at the limit", "step", "would pass the most a model folder may hold (2^48)", false);
    }

    void aHostileOptimizerFileIsRefused()
    {
        QFETCH(QString, change);
        QFETCH(QString, expected);
        QFETCH(bool, namesTheFile);
        const std::string folder = path("hostile");
        QDir(QString::fromStdString(folder)).removeRecursively();
        QVERIFY(QDir().mkpath(QString::fromStdString(folder)));
        for (const char *file : {"model.json", "weights.safetensors", "optimizer.safetensors"})
            QVERIFY(QFile::copy(QString::fromStdString(path("first") + "/" + file),
                                QString::fromStdString(folder + "/" + file)));
        const std::string source = folder + "/optimizer.safetensors";
        const auto original = gpumem::io::SafeTensorsFile::parse(readFile(source), source);
        std::map<std::string, std::string> metadata = original.metadata();
        std::vector<gpumem::io::TensorView> views;
        const float one = 1.0f;
        for (const auto &record : original.tensors()) {
            gpumem::io::TensorView view{record.name, record.dtype, record.shape, original.data(record)};
            if (change == "shape" && record.name == "feature_weight.exp_avg")
                view = {record.name, "F32", {1}, &one};
            views.push_back(view);
        }
        std::vector<float> negative;
        if (change == "negative") {
            for (auto &view : views)
                if (view.name == "feature_weight.exp_avg_sq") {
                    const auto *record = original.find(view.name);
                    negative.assign(static_cast<std::size_t>(record->elementCount()), -1.0f);
                    view.data = negative.data();
                }
        }
        if (change == "epochs")
            metadata["epochs_done"] = "0";
        if (change == "optimizer")
            metadata["optimizer"] = "adam";
        if (change == "step")
            metadata["step"] = std::to_string(std::int64_t{1} << 48);
        if (change == "extra")
            views.push_back({"extra", "F32", {1}, &one});
        gpumem::io::writeFileAtomically(source, gpumem::io::serializeSafeTensors(views, metadata));
        rerecord(folder, "optimizer.safetensors");

        const Run run = train({"--resume-from", folder, "--epochs", "4"}, path("refused"));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.find(expected.toStdString()) != std::string::npos, run.err.c_str());
        QVERIFY2(!namesTheFile || run.err.find(source) != std::string::npos, run.err.c_str());
        QCOMPARE(std::count(run.err.begin(), run.err.end(), '\n'), 1);
        QVERIFY(!QFile::exists(QString::fromStdString(path("refused"))));
    }
};

QTEST_GUILESS_MAIN(TestResumeTraining)
#include "test_ResumeTraining.moc"
