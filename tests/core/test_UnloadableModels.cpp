// SPDX-License-Identifier: GPL-3.0-or-later
// Regression tests for data that trained a model which `gpumem predict` then
// refused to load, or that ran training out of memory or into an internal
// error. What loading refuses is refused before training, naming the column, or
// no longer needs refusing. Each test names the bug it pins.

#include "CommandLineRun.h"
#include "RaisedInputError.h"
#include "data/Dataset.h"
#include "data/EncodingLimits.h"
#include "data/Standardizer.h"
#include "data/TableLoader.h"
#include "data/TargetTransform.h"
#include "io/InputError.h"
#include "io/RegularFile.h"
#include "models/ArchitectureSizes.h"
#include "models/Hyperparameters.h"
#include "models/ModelFolder.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using gpumem::io::InputError;

namespace {

// A network small enough to train in a moment; layer tokens on where asked.
std::vector<std::string> smallNetwork(bool layerTokens = false)
{
    std::vector<std::string> arguments = {
        "--set", "epochs=1",      "--set", "ensemble=1",       "--set", "d_model=8",
        "--set", "heads=1",       "--set", "encoder_layers=1", "--set", "gru_hidden=4",
        "--set", "feedforward=8", "--set", "head_hidden=4",    "--set", "allocator_input=false"};
    if (layerTokens)
        arguments.insert(arguments.end(), {"--set", "layer_tokens=true"});
    return arguments;
}

// A layer list of count ('linear', activations, parameters) tuples.
std::string layerCell(std::size_t count, int seed)
{
    std::string cell = "\"[";
    for (std::size_t k = 0; k < count; ++k)
        cell += (k ? ", ('linear', " : "('linear', ") + std::to_string(100 + seed + int(k % 7)) + ", " +
                std::to_string(1000 + int(k % 5)) + ")";
    return cell + "]\"";
}

// Expects run to have failed with exactly one line on stderr that starts with
// "gpumem train: " + location and holds every part, and folder to be absent.
void expectRefusedBeforeTraining(const Run &run, const std::string &location, const std::vector<std::string> &parts,
                                 const QString &folder)
{
    QCOMPARE(run.exitCode, 1);
    QCOMPARE(lineCount(run.err), 1);
    QVERIFY2(run.err.rfind("gpumem train: " + location, 0) == 0, run.err.c_str());
    for (const std::string &part : parts)
        QVERIFY2(contains(run.err, part), run.err.c_str());
    QVERIFY2(!contains(run.err, "internal error"), run.err.c_str());
    QVERIFY2(!QFileInfo::exists(folder), qPrintable(folder));
}

// Trains on file (target memory, with options) to folder, then predicts file with the saved
// model: both must succeed.
// Returns the predictions column.
std::vector<double> trainThenPredict(const std::string &file, const std::string &folder,
                                     const std::vector<std::string> &options)
{
    const Run trained = runGpumem(withArguments({"train", file, "--target", "memory", "--out", folder}, options));
    if (trained.exitCode != 0) {
        QTest::qFail(trained.err.c_str(), __FILE__, __LINE__);
        return {};
    }
    const Run predicted = runGpumem({"predict", folder, file});
    if (predicted.exitCode != 0) {
        QTest::qFail(predicted.err.c_str(), __FILE__, __LINE__);
        return {};
    }
    std::vector<double> values;
    std::size_t begin = predicted.out.find('\n') + 1;
    while (begin < predicted.out.size()) {
        const std::size_t end = predicted.out.find('\n', begin);
        values.push_back(std::stod(predicted.out.substr(begin, predicted.out.find(',', begin) - begin)));
        begin = end == std::string::npos ? predicted.out.size() : end + 1;
    }
    return values;
}

} // namespace

class TestUnloadableModels : public QObject
{
    Q_OBJECT

  private:
    QTemporaryDir mFolder;

    std::string path(const char *name) const { return QDir(mFolder.path()).filePath(name).toStdString(); }

  private Q_SLOTS:
    void initTestCase() { QVERIFY(mFolder.isValid()); }

    // Bug: --preset gpu on 64 jobs of 512 layers grew past 4 GB and ended in a
    // LibTorch allocation error: attention over layer tokens grows with the square
    // of a row's layers, and a cell may hold 8,192.
    void layerSequenceLongerThanTheTokenLimitIsRefusedBeforeTraining()
    {
        const std::size_t limit = gpumem::models::maxLayerTokens;
        std::string text = "layers,batch,memory\n";
        for (int row = 0; row < 4; ++row)
            text += layerCell(row == 2 ? limit + 1 : 3, row) + "," + std::to_string(row + 1) + "," +
                    std::to_string(1000 + 10 * row) + "\n";
        const std::string file = path("long_layers.csv");
        QVERIFY(writeText(QString::fromStdString(file), text));
        const std::string folder = path("long_layers_model");
        const Run run =
            runGpumem(withArguments({"train", file, "--target", "memory", "--out", folder}, smallNetwork(true)));
        // Line 4 holds the long row; the layers are column 1.
        expectRefusedBeforeTraining(run, file + ":4:1: ",
                                    {"column 'layers' holds " + std::to_string(limit + 1) + " layers",
                                     "more than the " + std::to_string(limit), "layer_tokens=false"},
                                    QString::fromStdString(folder));

        // Without layer tokens the same rows train: the limit is the attention's, not the data's.
        const Run summaries =
            runGpumem(withArguments({"train", file, "--target", "memory", "--out", folder}, smallNetwork(false)));
        QVERIFY2(summaries.exitCode == 0, summaries.err.c_str());
    }

    void layerSequenceAtTheTokenLimitTrains()
    {
        const std::size_t limit = gpumem::models::maxLayerTokens;
        // The deepest shipped dataset (datasets/zoo.csv.gz) has 366 layers.
        QVERIFY(limit >= 366);
        std::string text = "layers,batch,memory\n";
        for (int row = 0; row < 3; ++row)
            text += layerCell(row == 1 ? limit : 4, row) + "," + std::to_string(row + 1) + "," +
                    std::to_string(1000 + 10 * row) + "\n";
        const std::string file = path("limit_layers.csv");
        QVERIFY(writeText(QString::fromStdString(file), text));
        const std::string folder = path("limit_layers_model");
        const std::vector<double> predicted = trainThenPredict(file, folder, smallNetwork(true));
        QCOMPARE(predicted.size(), std::size_t(3));
    }

    // Bug: a target of two clusters (half near 0.1 MiB, half near 30 GiB: CPU-probed
    // and GPU jobs in one file) trained a network that predict refused: "the target
    // transform would predict infinite values", though 8 deviations in log1p space
    // reach 1e20 MiB, a finite number.
    void targetOfTwoFarClustersTrainsAndLoads()
    {
        std::string text = "batch,width,memory\n";
        for (int row = 0; row < 24; ++row)
            text += std::to_string(1 + row % 8) + "," + std::to_string(16 * (1 + row % 5)) + "," +
                    (row % 2 ? std::to_string(30720 + 50 * (row % 9)) : "0." + std::to_string(1 + row % 7)) + "\n";
        const std::string file = path("clusters.csv");
        QVERIFY(writeText(QString::fromStdString(file), text));
        const std::string folder = path("clusters_model");
        const std::vector<double> predicted = trainThenPredict(file, folder, smallNetwork());
        QCOMPARE(predicted.size(), std::size_t(24));
        for (double value : predicted)
            QVERIFY(std::isfinite(value));
    }

    // The rule that loading and fitting share, against transforms worked out by hand.
    void targetTransformFlawsAreThoseOfInfiniteValues()
    {
        using gpumem::data::TargetTransform;
        // Two clusters at 0.1 and 30720 MiB: log1p gives 0.0953 and 10.3327; mean 5.214, deviation 5.119.
        Eigen::VectorXd target(4);
        target << 0.1, 30720.0, 0.1, 30720.0;
        TargetTransform clusters(true);
        clusters.fit(target, {0, 1, 2, 3});
        const double low = std::log1p(0.1);
        const double high = std::log1p(30720.0);
        QVERIFY(std::fabs(clusters.mean() - (low + high) / 2) < 1e-12);
        QVERIFY(std::fabs(clusters.scale() - (high - low) / 2) < 1e-12);
        // expm1(5.214 + 8 * 5.119) = expm1(46.16), about 1.1e20 MiB: finite.
        QCOMPARE(clusters.flaw(), std::string());
        QVERIFY(std::fabs(std::log(clusters.inverse(8.0)) - 46.166) < 1e-2);

        // log1p space: 400 + 8 * 50 = 800 > log(DBL_MAX) = 709.78.
        QVERIFY(TargetTransform(true, 400.0, 50.0).flaw().find("infinite values 8 deviations") != std::string::npos);
        QCOMPARE(TargetTransform(true, 400.0, 38.0).flaw(), std::string()); // 704 < 709.78
        // Plain MiB: 1e308 + 8 * 1e307 = 1.8e308 > DBL_MAX.
        QVERIFY(!TargetTransform(false, 1e308, 1e307).flaw().empty());
        QCOMPARE(TargetTransform(false, 1e308, 1e306).flaw(), std::string());
        // Scales: at least 1e-100, which a denormal deviation is not.
        QCOMPARE(TargetTransform(false, 1.0, 1e-100).flaw(), std::string());
        QVERIFY(TargetTransform(false, 1.0, 1e-101).flaw().find("scale below 1e-100") != std::string::npos);
        QVERIFY(!TargetTransform(false, 1.0, 0.0).flaw().empty());
        QVERIFY(!TargetTransform(false, std::numeric_limits<double>::quiet_NaN(), 1.0).flaw().empty());
    }

    // Bug: a feature taking ±1e101 trained a network whose feature scaling loading then refused.
    void featureBeyondTheScalingLimitIsRefusedBeforeTraining()
    {
        std::string text = "batch,offset,memory\n";
        for (int row = 0; row < 12; ++row)
            text += std::to_string(1 + row % 8) + "," + (row % 2 ? "1e101" : "-1e101") + "," +
                    std::to_string(100 + 10 * row) + "\n";
        const std::string file = path("huge_feature.csv");
        QVERIFY(writeText(QString::fromStdString(file), text));
        const std::string folder = path("huge_feature_model");
        const Run run =
            runGpumem(withArguments({"train", file, "--target", "memory", "--out", folder}, smallNetwork()));
        expectRefusedBeforeTraining(run, file + ": ", {"feature 'offset' reaches 1e+101", "at most 1e+100"},
                                    QString::fromStdString(folder));

        // Models that keep no scaler train and load as before.
        const std::string ridge = path("huge_feature_ridge");
        QCOMPARE(trainThenPredict(file, ridge, {"--model", "ridge"}).size(), std::size_t(12));
    }

    // The rule that loading and fitting share, against statistics worked out by hand.
    void scalerStatisticsBeyondTheLimitAreNotKeepable()
    {
        using gpumem::data::Standardizer;
        QVERIFY(Standardizer::isKeepable(0.0, 1.0));
        QVERIFY(Standardizer::isKeepable(-1e100, 1e100));
        QVERIFY(Standardizer::isKeepable(1e100, 1e-100));
        QVERIFY(!Standardizer::isKeepable(1.01e100, 1.0));
        QVERIFY(!Standardizer::isKeepable(0.0, 1.01e100));
        QVERIFY(!Standardizer::isKeepable(0.0, 0.99e-100));
        QVERIFY(!Standardizer::isKeepable(std::numeric_limits<double>::infinity(), 1.0));

        // Column 1 alternates ±1e101: mean 0, population deviation 1e101.
        Eigen::MatrixXd features(4, 2);
        features << 1.0, 1e101, 2.0, -1e101, 3.0, 1e101, 4.0, -1e101;
        Standardizer scaler;
        scaler.fit(features, {0, 1, 2, 3});
        QCOMPARE(scaler.means()[1], 0.0);
        QVERIFY(std::fabs(scaler.scales()[1] / 1e101 - 1.0) < 1e-12);
        QCOMPARE(scaler.firstUnkeepableColumn(), Eigen::Index(1));
        Standardizer plain;
        plain.fit(features.leftCols(1), {0, 1, 2, 3});
        QCOMPARE(plain.firstUnkeepableColumn(), Eigen::Index(-1));
    }

    // Bug: two 33 MiB category values wrote a 67 MiB model.json, which loading refused (64 MiB limit).
    void categoryLongerThanAModelKeepsIsRefusedBeforeTraining()
    {
        const std::size_t limit = gpumem::data::maxNameBytes;
        const std::string file = path("long_category.csv");
        const std::string longValue(limit + 1, 'a');
        QVERIFY(writeText(QString::fromStdString(file), "kind,batch,memory\nshort,1,100\n" + longValue +
                                                            ",2,110\nshort,3,120\n" + longValue + ",4,130\n"));
        const std::string folder = path("long_category_model");
        const Run run = runGpumem({"train", file, "--target", "memory", "--model", "ridge", "--out", folder});
        expectRefusedBeforeTraining(run, file + ":3:1: ",
                                    {"category in column 'kind'", std::to_string(limit + 1) + " bytes long",
                                     "more than the " + std::to_string(limit)},
                                    QString::fromStdString(folder));

        // At the limit it trains and loads.
        const std::string atLimit = path("limit_category.csv");
        QVERIFY(writeText(QString::fromStdString(atLimit),
                          "kind,batch,memory\nshort,1,100\n" + std::string(limit, 'b') + ",2,110\nshort,3,120\n"));
        const std::string kept = path("limit_category_model");
        QCOMPARE(trainThenPredict(atLimit, kept, {"--model", "ridge"}).size(), std::size_t(3));
    }

    // The same limit holds for a used column's name and for layer types.
    void longColumnNamesAndLayerTypesAreRefusedToo()
    {
        const std::string longName(gpumem::data::maxNameBytes + 1, 'n');
        const auto table = gpumem::data::loadTableFromText(longName + ",batch,memory\n1,1,2\n3,2,4\n", "names.csv");
        gpumem::data::RoleRequest request;
        request.target = "memory";
        std::vector<std::string> warnings;
        const InputError named = gpumem::tests::raisedInputError([&] {
            gpumem::data::Dataset::fromTable(table, gpumem::data::assignRoles(table, request),
                                             gpumem::data::BadCellPolicy::Fail, warnings);
        });
        QVERIFY2(contains(named.what(), "names.csv: the name of column 1"), named.what());
        // Ignored, it is no model's concern.
        request.ignored = {longName};
        gpumem::data::Dataset::fromTable(table, gpumem::data::assignRoles(table, request),
                                         gpumem::data::BadCellPolicy::Fail, warnings);

        const std::string longType(gpumem::data::maxNameBytes + 1, 't');
        const auto layers = gpumem::data::loadTableFromText(
            "layers,memory\n\"[('linear', 1, 2)]\",1\n\"[('" + longType + "', 1, 2)]\",2\n", "types.csv");
        request = {};
        request.target = "memory";
        const InputError typed = gpumem::tests::raisedInputError([&] {
            gpumem::data::Dataset::fromTable(layers, gpumem::data::assignRoles(layers, request),
                                             gpumem::data::BadCellPolicy::Fail, warnings);
        });
        QVERIFY2(contains(typed.what(), "types.csv:3:1: the layer type in column 'layers'"), typed.what());
    }

    // Whatever fills it, a model.json that loading would refuse is not written.
    void modelJsonOverTheLoadLimitIsNotSaved()
    {
        const QString folder = QDir(mFolder.path()).filePath("oversized_model");
        const std::string blob(gpumem::io::maxJsonFileBytes, 'x');
        const InputError error = gpumem::tests::raisedInputError([&] {
            gpumem::models::writeModelFolder(
                folder.toStdString(), "ridge", gpumem::models::Hyperparameters(), 1, gpumem::models::ModelSchema(),
                [&](const std::string &) {
                    return gpumem::io::Json{{"blob", blob}};
                },
                gpumem::io::Json::object());
        });
        QVERIFY2(contains(error.what(), "MiB, more than the 64 MiB that loading reads; not saved"), error.what());
        QVERIFY(!QFileInfo::exists(folder));
    }

    // Bug: targets around 1e-310 (denormals) stopped training with "internal error:
    // RegressionLoss: delta must be a positive number, not inf", under the default mse loss.
    void denormalTargetsAreRefusedNamingTheColumn_data()
    {
        QTest::addColumn<QString>("loss");
        QTest::newRow("mse") << "mse";
        QTest::newRow("huber") << "huber";
    }

    void denormalTargetsAreRefusedNamingTheColumn()
    {
        QFETCH(QString, loss);
        std::string text = "batch,memory\n";
        for (int row = 0; row < 10; ++row)
            text += std::to_string(1 + row % 8) + "," + std::to_string(1 + row % 5) + "e-310\n";
        const std::string file = path("denormal.csv");
        QVERIFY(writeText(QString::fromStdString(file), text));
        const std::string folder = path("denormal_model");
        const Run run =
            runGpumem(withArguments({"train", file, "--target", "memory", "--out", folder},
                                    withArguments(smallNetwork(), {"--set", "loss=" + loss.toStdString()})));
        expectRefusedBeforeTraining(run, file + ": ", {"target column 'memory'", "scale below 1e-100"},
                                    QString::fromStdString(folder));
    }
};

QTEST_GUILESS_MAIN(TestUnloadableModels)
#include "test_UnloadableModels.moc"
