// SPDX-License-Identifier: GPL-3.0-or-later
// Model folders are untrusted files: people share them the way they share
// weights files. Each case below is a folder someone could hand over, and each
// must end in exit 1 with one line naming the file, before anything is sized by
// it, run from it or predicted with it.
#include "CommandLineRun.h"
#include "DataTables.h"
#include "ModelFolderEdits.h"
#include "io/SafeTensors.h"
#include "io/Sha256.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <functional>
#include <limits>
#include <sstream>

namespace {

using gpumem::tests::copyFolder, gpumem::tests::readModelJson, gpumem::tests::rerecord, gpumem::tests::writeModelJson;

const std::string jobs = GPUMEM_TEST_DATA_DIR "/jobs_training.csv";

std::size_t indexOf(const std::vector<gpumem::io::TensorView> &views, const std::string &name)
{
    for (std::size_t i = 0; i < views.size(); ++i)
        if (views[i].name == name)
            return i;
    qFatal("no tensor %s", name.c_str());
}

// Rewrites the network's weights file through edit, which may change any tensor.
void editWeights(
    const QString &folder,
    const std::function<void(std::vector<gpumem::io::TensorView> &, std::vector<std::vector<char>> &)> &edit)
{
    const QByteArray bytes = fileBytes(folder + "/weights.safetensors");
    const auto file = gpumem::io::SafeTensorsFile::parse(
        std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())), "weights.safetensors");
    std::vector<std::vector<char>> buffers;
    std::vector<gpumem::io::TensorView> views;
    for (const auto &tensor : file.tensors()) {
        buffers.emplace_back(file.data(tensor), file.data(tensor) + (tensor.end - tensor.begin));
        views.push_back({tensor.name, tensor.dtype, tensor.shape, nullptr});
    }
    edit(views, buffers);
    for (std::size_t i = 0; i < views.size(); ++i)
        views[i].data = buffers[i].data();
    const std::string rewritten = gpumem::io::serializeSafeTensors(views);
    QVERIFY(
        writeFile(folder + "/weights.safetensors", QByteArray(rewritten.data(), static_cast<int>(rewritten.size()))));
    rerecord(folder, "weights.safetensors");
}

} // namespace

class TestModelFolderTrust : public QObject
{
    Q_OBJECT

  private:
    QTemporaryDir mScratch;
    QString mNetwork; // a trained network, d_model 16
    QString mWider;   // the same data, d_model 32
    QString mRidge;
    int mCase = 0;

    QString trainNetwork(const QString &name, const char *dModel)
    {
        const QString folder = mScratch.filePath(name);
        const Run train = runGpumem({"train",    jobs,
                                     "--target", "memory_mib",
                                     "--set",    "epochs=1",
                                     "--set",    "ensemble=1",
                                     "--set",    dModel,
                                     "--set",    "gru_hidden=8",
                                     "--set",    "heads=2",
                                     "--set",    "encoder_layers=1",
                                     "--set",    "feedforward=32",
                                     "--set",    "head_hidden=16",
                                     "--set",    "validation_fraction=0",
                                     "--set",    "layer_tokens=true",
                                     "--device", "cpu",
                                     "--out",    folder.toStdString()});
        if (train.exitCode != 0)
            qWarning() << train.err.c_str();
        return folder;
    }

    // A fresh copy of a trained folder to damage.
    QString copyOf(const QString &folder)
    {
        const QString copy = mScratch.filePath("case-" + QString::number(++mCase));
        copyFolder(folder, copy);
        return copy;
    }

    // A copy of the trained network whose model.json "fitted" member went through edit.
    QString editedFitted(const std::function<void(QJsonObject &)> &edit)
    {
        const QString folder = copyOf(mNetwork);
        QJsonObject metadata = readModelJson(folder);
        QJsonObject fitted = metadata.value("fitted").toObject();
        edit(fitted);
        metadata.insert("fitted", fitted);
        writeModelJson(folder, metadata);
        return folder;
    }

    static void setNetworkCount(QJsonObject &fitted, const char *name, double value)
    {
        QJsonObject network = fitted.value("network").toObject();
        network.insert(name, value);
        fitted.insert("network", network);
    }

    // predict on folder fails with one line on stderr that contains every fragment.
    void expectRefused(const QString &folder, const QStringList &fragments)
    {
        const std::string out = mScratch.filePath("predictions-" + QString::number(mCase) + ".csv").toStdString();
        const Run run = runGpumem({"predict", folder.toStdString(), jobs, "--out", out});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.size() > 1 && run.err.find('\n') == run.err.size() - 1, run.err.c_str());
        for (const QString &fragment : fragments)
            QVERIFY2(QString::fromStdString(run.err).contains(fragment), run.err.c_str());
        QVERIFY2(!QFile::exists(QString::fromStdString(out)), "a prediction file was written");
    }

  private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(mScratch.isValid());
        mNetwork = trainNetwork("network", "d_model=16");
        mWider = trainNetwork("wider", "d_model=32");
        mRidge = mScratch.filePath("ridge");
        QCOMPARE(runGpumem({"train", jobs, "--target", "memory_mib", "--model", "ridge", "--out", mRidge.toStdString()})
                     .exitCode,
                 0);
        for (const QString &folder : {mNetwork, mWider, mRidge})
            QVERIFY2(QFile::exists(folder + "/model.json"), qPrintable(folder));
    }

    void trustedFoldersPredict()
    {
        for (const QString &folder : {mNetwork, mRidge}) {
            const std::string out = mScratch.filePath("ok.csv").toStdString();
            const Run run = runGpumem({"predict", folder.toStdString(), jobs, "--out", out});
            QVERIFY2(run.exitCode == 0, run.err.c_str());
        }
        // The weights are data: a safetensors header, no code.
        QVERIFY(!QFile::exists(mNetwork + "/weights.pt"));
        const QJsonObject files = readModelJson(mNetwork).value("files").toObject();
        // Beside the weights, the optimizer state that `train --resume-from` continues, data as well.
        QCOMPARE(files.keys(), (QStringList{"optimizer.safetensors", "weights.safetensors"}));
        const QByteArray weights = fileBytes(mNetwork + "/weights.safetensors");
        QCOMPARE(files.value("weights.safetensors").toObject().value("sha256").toString(),
                 QString::fromStdString(gpumem::io::sha256Hex(std::string(weights.constData(), weights.size()))));
    }

    void refusesTheOldTorchScriptFormat()
    {
        // Format 1 kept the weights as a TorchScript archive, whose planted __setstate__ runs on load.
        const QString folder = copyOf(mNetwork);
        QJsonObject metadata = readModelJson(folder);
        metadata.insert("format_version", 1);
        writeModelJson(folder, metadata);
        QVERIFY(writeFile(folder + "/weights.pt", "PK\x03\x04 not loaded"));
        expectRefused(folder, {"model.json", "model format 1", "train the model again"});
    }

    void refusesAFlippedBit()
    {
        const QString folder = copyOf(mNetwork);
        QByteArray weights = fileBytes(folder + "/weights.safetensors");
        weights[weights.size() - 3] = static_cast<char>(weights[weights.size() - 3] ^ 0x10);
        QVERIFY(writeFile(folder + "/weights.safetensors", weights));
        expectRefused(folder, {"weights.safetensors", "does not match the SHA-256"});
    }

    void refusesWeightsSwappedInFromAnotherModel()
    {
        // Swapped without its digest: the digest says so.
        QString folder = copyOf(mNetwork);
        QFile::remove(folder + "/weights.safetensors");
        QVERIFY(QFile::copy(mWider + "/weights.safetensors", folder + "/weights.safetensors"));
        expectRefused(folder, {"does not match the SHA-256"});
        // Swapped with its digest: a d_model 32 file does not load into a d_model 16 folder.
        rerecord(folder, "weights.safetensors");
        expectRefused(folder, {"weights.safetensors", "feature_weight", "[", "32]", "16]"});
    }

    void refusesATensorOfTheWrongShapeDtypeOrName()
    {
        QString folder = copyOf(mNetwork);
        editWeights(folder, [](auto &views, auto &buffers) {
            views[indexOf(views, "final_norm.weight")].shape.push_back(1); // same bytes, one more dimension
            (void)buffers;
        });
        expectRefused(folder, {"has shape", "needs"});

        folder = copyOf(mNetwork);
        editWeights(folder, [](auto &views, auto &buffers) {
            views[indexOf(views, "final_norm.weight")].dtype = "I32"; // same size as F32, another meaning
            (void)buffers;
        });
        expectRefused(folder, {"is I32, not F32"});

        folder = copyOf(mNetwork);
        editWeights(folder, [](auto &views, auto &buffers) {
            views.push_back({"planted.weight", "F32", {1}, nullptr});
            buffers.emplace_back(4, '\0');
        });
        expectRefused(folder, {"'planted.weight'", "does not have"});

        folder = copyOf(mNetwork);
        editWeights(folder, [](auto &views, auto &buffers) {
            const std::size_t removed = indexOf(views, "final_norm.weight");
            views.erase(views.begin() + static_cast<std::ptrdiff_t>(removed));
            buffers.erase(buffers.begin() + static_cast<std::ptrdiff_t>(removed));
        });
        expectRefused(folder, {"lacks the tensor"});

        folder = copyOf(mNetwork);
        editWeights(folder, [](auto &views, auto &buffers) {
            const float notANumber = std::numeric_limits<float>::quiet_NaN();
            std::memcpy(buffers.front().data(), &notANumber, sizeof notANumber);
            (void)views;
        });
        expectRefused(folder, {"non-finite"});
    }

    void refusesCountsThatDisagreeWithTheWeights()
    {
        // 100,000 extra layer types would map past the embedding table.
        expectRefused(editedFitted([](QJsonObject &fitted) {
                          QJsonArray vocabulary = fitted.value("layer_vocabulary").toArray();
                          for (int i = 0; i < 100000; ++i)
                              vocabulary.append(QString("type%1").arg(i));
                          fitted.insert("layer_vocabulary", vocabulary);
                      }),
                      {"layer_vocabulary", "more than the 257"});
        // layer_type_count = 2e7 must not allocate a 2.6 GB embedding table.
        expectRefused(editedFitted([](QJsonObject &fitted) { setNetworkCount(fitted, "layer_type_count", 2e7); }),
                      {"layer_type_count"});
        // A count that agrees with a longer vocabulary still disagrees with the weights.
        expectRefused(editedFitted([](QJsonObject &fitted) {
                          QJsonArray vocabulary = fitted.value("layer_vocabulary").toArray();
                          vocabulary.append("extra");
                          fitted.insert("layer_vocabulary", vocabulary);
                          setNetworkCount(fitted, "layer_type_count", static_cast<double>(vocabulary.size() + 1));
                      }),
                      {"layer_type_embedding.weight", "model.json describes"});
        // A feature count that disagrees with the schema.
        expectRefused(editedFitted([](QJsonObject &fitted) {
                          const int features = fitted.value("network").toObject().value("feature_count").toInt();
                          setNetworkCount(fitted, "feature_count", features + 34);
                      }),
                      {"feature_count", "schema encodes"});
    }

    void refusesScalersThatPredictGarbage_data()
    {
        addColumns<QString, QString, double, QString>("member", "key", "value", "message");
        addRow("zero feature scale", "feature_scaling", "scale", 0.0, "scale between");
        addRow("huge feature mean", "feature_scaling", "mean", 1e300, "finite mean");
        addRow("target mean 1e308", "target_transform", "mean", 1e308, "infinite values");
        addRow("negative target scale", "target_transform", "scale", -1.0, "infinite values");
    }

    void refusesScalersThatPredictGarbage()
    {
        QFETCH(QString, member);
        QFETCH(QString, key);
        QFETCH(double, value);
        QFETCH(QString, message);
        expectRefused(editedFitted([&](QJsonObject &fitted) {
                          QJsonObject scaling = fitted.value(member).toObject();
                          if (scaling.value(key).isArray()) {
                              QJsonArray values = scaling.value(key).toArray();
                              values.replace(0, value);
                              scaling.insert(key, values);
                          } else {
                              scaling.insert(key, value);
                          }
                          fitted.insert(member, scaling);
                      }),
                      {message});
    }

    void refusesFileListsThatLeaveTheFolder()
    {
        QString folder = copyOf(mRidge);
        QJsonObject metadata = readModelJson(folder);
        metadata.insert("files", QJsonObject{{"../ridge/model.json", QJsonObject{{"bytes", 1}, {"sha256", "00"}}}});
        writeModelJson(folder, metadata);
        expectRefused(folder, {"not a file of the folder"});

        folder = copyOf(mRidge);
        metadata = readModelJson(folder);
        metadata.remove("files");
        writeModelJson(folder, metadata);
        expectRefused(folder, {"\"files\""});
    }

    void readsOnlyRegularFilesOfBoundedSize()
    {
        // model.json pointing at /dev/zero would otherwise be read for ever.
        QString folder = copyOf(mRidge);
        QFile::remove(folder + "/model.json");
        QVERIFY(QFile::link("/dev/zero", folder + "/model.json"));
        expectRefused(folder, {"model.json", "not a regular file"});

        folder = copyOf(mRidge);
        QFile::remove(folder + "/model.json");
        QVERIFY(QDir().mkpath(folder + "/model.json"));
        expectRefused(folder, {"model.json", "folder"});
    }

    // Issue 24: a 204 KB folder declaring maximal layers built a 2.7 GB network before the
    // weights' shapes were compared; the weights' count is now checked first.
    void refusesHyperparametersLargerThanItsWeightsBeforeBuilding()
    {
        const QString folder = copyOf(mNetwork);
        QJsonObject metadata = readModelJson(folder);
        QJsonObject hyperparameters = metadata.value("hyperparameters").toObject();
        for (const auto &[name, value] : std::initializer_list<std::pair<const char *, int>>{{"gru_hidden", 1024},
                                                                                             {"gru_layers", 8},
                                                                                             {"encoder_layers", 24},
                                                                                             {"feedforward", 8192},
                                                                                             {"head_hidden", 4096}})
            hyperparameters.insert(name, value);
        metadata.insert("hyperparameters", hyperparameters);
        writeModelJson(folder, metadata);
        expectRefused(folder, {"weights.safetensors", "weights, but the network model.json describes has"});
    }

    void refusesAHugeOrFractionalSeed()
    {
        const QString folder = copyOf(mRidge);
        QJsonObject metadata = readModelJson(folder);
        metadata.insert("seed", 1e300);
        writeModelJson(folder, metadata);
        expectRefused(folder, {"seed"});
    }
};

QTEST_GUILESS_MAIN(TestModelFolderTrust)
#include "test_ModelFolderTrust.moc"
