// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"
#include "RaisedInputError.h"

#include "data/FeatureEncoder.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "models/ModelFolder.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkRegressor.h"
#include "models/RegressorRegistry.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

std::string fileText(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// A tree with one split: a ≤ 2.5 gives 10, above it 20; the root's mean is 15.
const char *const stepCsv = "a,memory\n1,10\n2,10\n3,20\n4,20\n";

} // namespace

class TestModelFolderLayout : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // model.json is built as one tree and written once; its digests and the
    // tests that read it depend on the layout the member-by-member writer had,
    // written out here by hand for a tree whose split is known.
    void modelJsonKeepsTheStreamedLayout()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const auto dataset = gpumem::tests::baselineDataset(stepCsv);
        const auto model =
            gpumem::models::createRegressor("decision_tree", gpumem::models::regressorHyperparameters("decision_tree"),
                                            gpumem::tests::cpuSettings(18446744073709551557ull));
        model->fit(dataset, gpumem::tests::firstRows(4));
        const std::string directory = folder.filePath("tree").toStdString();
        model->save(directory);
        const std::string text = fileText(directory + "/model.json");

        QVERIFY(text.rfind("{\n  \"format\": \"gpumem-model\",\n  \"format_version\": 2,\n  \"model\": "
                           "\"decision_tree\",\n  \"hyperparameters\": {\n    \"",
                           0) == 0);
        const std::string seedToFiles = "\n  \"seed\": 18446744073709551557,\n"
                                        "  \"schema\": {\n"
                                        "    \"target\": \"memory\",\n"
                                        "    \"numeric\": [\n      \"a\"\n    ],\n"
                                        "    \"categorical\": [],\n"
                                        "    \"sequence_column\": \"\",\n"
                                        "    \"layer_types\": [],\n"
                                        "    \"fields_per_layer\": 0,\n"
                                        "    \"ranges\": [\n      [\n        1,\n        4\n      ]\n    ]\n"
                                        "  },\n"
                                        "  \"fitted\": {\n"
                                        "    \"features\": 1,\n"
                                        "    \"feature\": [\n      0,\n      -1,\n      -1\n    ],\n"
                                        "    \"threshold\": [\n      2.5,\n      0,\n      0\n    ],\n"
                                        "    \"left\": [\n      1,\n      -1,\n      -1\n    ],\n"
                                        "    \"right\": [\n      2,\n      -1,\n      -1\n    ],\n"
                                        "    \"value\": [\n      15,\n      10,\n      20\n    ]\n"
                                        "  },\n"
                                        "  \"files\": {},\n"
                                        "  \"library_versions\": {\n    \"";
        QVERIFY2(text.find(seedToFiles) != std::string::npos, text.c_str());
        QVERIFY(text.size() > 3 && text.compare(text.size() - 3, 3, "\n}\n") == 0);

        // Saving the reloaded model writes the same bytes.
        const std::string again = folder.filePath("again").toStdString();
        gpumem::models::loadRegressor(directory)->save(again);
        QCOMPARE(fileText(again + "/model.json"), text);
    }

    // The network saves through RegressorBase like every model: the seed as an
    // unsigned integer, its scalers under "fitted", its weights and optimizer
    // state as files with digests.
    void networkFolderGoesThroughTheBase()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        gpumem::models::Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
        for (const char *assignment : {"d_model=8", "heads=2", "gru_hidden=4", "encoder_layers=1", "feedforward=16",
                                       "head_hidden=8", "epochs=2", "batch_size=16", "ensemble=1"})
            hyperparameters.setAssignment(assignment);
        const std::uint64_t seed = 9007199254740993ull; // 2^53 + 1: a double would drop the last bit
        gpumem::models::NeuralNetworkRegressor network(hyperparameters, gpumem::tests::cpuSettings(seed));
        QVERIFY(!network.isFitted());
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, network.save(folder.filePath("unfitted").toStdString()));
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(40, 1.0));
        network.fit(dataset, gpumem::tests::firstRows(40));
        QVERIFY(network.isFitted());
        const std::string directory = folder.filePath("network").toStdString();
        network.save(directory);

        const gpumem::io::Json metadata = gpumem::models::readModelMetadata(directory);
        QVERIFY(gpumem::io::member(metadata, "seed").is_number_unsigned());
        QCOMPARE(gpumem::io::member(metadata, "seed").get<std::uint64_t>(), seed);
        const gpumem::io::Json &fitted = gpumem::io::member(metadata, "fitted");
        for (const char *key : {"weights", "feature_scaling", "target_transform", "network", "training"})
            QVERIFY2(gpumem::io::findMember(fitted, key), key);
        const gpumem::io::Json &files = gpumem::io::member(metadata, "files");
        QVERIFY(gpumem::io::findMember(files, "weights.safetensors"));
        QVERIFY(gpumem::io::findMember(files, "optimizer.safetensors"));

        const auto loaded = gpumem::models::NeuralNetworkRegressor::load(directory, gpumem::tests::cpuSettings(1));
        QCOMPARE(loaded.seed(), seed);
        QCOMPARE(loaded.epochsTrained(), 2);
        QCOMPARE(loaded.predict(dataset), network.predict(dataset));
        // A folder of another model is refused with the one message naming both.
        const std::string ridge = folder.filePath("ridge").toStdString();
        const auto other = gpumem::models::createRegressor("ridge", gpumem::models::regressorHyperparameters("ridge"));
        other->fit(dataset, gpumem::tests::firstRows(40));
        other->save(ridge);
        const auto error =
            gpumem::tests::raisedInputError([&] { gpumem::models::NeuralNetworkRegressor::load(ridge); });
        QVERIFY2(std::string(error.what()).find("holds a 'ridge' model, not bigru_transformer") != std::string::npos,
                 error.what());
    }

    // The schema keeps the batch-size column whose product with the activations is
    // encoded; a schema whose batch column is not one of its numeric columns is refused.
    void schemaKeepsTheBatchColumn()
    {
        const auto dataset = gpumem::tests::baselineDataset(
            "batch_size,layers,memory\n8,\"[('linear', 10, 20)]\",30\n16,\"[('linear', 5, 6)]\",40\n");
        gpumem::data::FeatureEncoder encoder;
        encoder.fit(dataset, gpumem::tests::firstRows(2));
        const gpumem::models::ModelSchema schema{"memory", encoder.encoding()};
        gpumem::io::Json json = schema;
        QCOMPARE(gpumem::io::member(json, "batch_column").get<std::string>(), std::string("batch_size"));
        const auto restored = json.get<gpumem::models::ModelSchema>();
        QCOMPARE(gpumem::data::FeatureEncoder(restored.encoding).featureNames(), encoder.featureNames());

        json["batch_column"] = "memory";
        const auto error = gpumem::tests::raisedInputError([&] { (void)json.get<gpumem::models::ModelSchema>(); });
        QVERIFY2(std::string(error.what()).find("\"batch_column\" 'memory'") != std::string::npos, error.what());
    }

    // The tree is checked for non-finite numbers as the streamed document was:
    // such a save is refused and leaves no folder behind.
    void nonFiniteMemberRefusesTheSave()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const auto dataset = gpumem::tests::baselineDataset(stepCsv);
        const auto model =
            gpumem::models::createRegressor("decision_tree", gpumem::models::regressorHyperparameters("decision_tree"));
        model->fit(dataset, gpumem::tests::firstRows(4));
        const std::string directory = folder.filePath("refused").toStdString();
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError,
                                 model->save(directory, {{"extra", gpumem::io::Json{{"x", std::nan("")}}}}));
        QVERIFY(!std::filesystem::exists(directory));
        model->save(directory);
        QVERIFY(!gpumem::io::findMember(gpumem::models::readModelMetadata(directory), "extra"));
    }
};

QTEST_GUILESS_MAIN(TestModelFolderLayout)
#include "test_ModelFolderLayout.moc"
