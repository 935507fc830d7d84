// SPDX-License-Identifier: GPL-3.0-or-later
#include "RaisedInputError.h"
#include "SmallNetwork.h"
#include "TestSupport.h"
#include "data/Dataset.h"
#include "data/SeededRandom.h"
#include "data/TableLoader.h"
#include "io/InputError.h"
#include "models/NeuralNetworkRegressor.h"
#include "models/SimulatedPeakInput.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>

using gpumem::data::Dataset, gpumem::models::Hyperparameters, gpumem::models::NeuralNetworkRegressor;

namespace {

// Jobs whose memory follows a known rule: 1000 MiB + 2 MiB per parameter unit + activations × batch.
std::string jobsCsv(int rows, unsigned seed, bool withTarget = true)
{
    std::mt19937 engine(seed);
    std::string text = std::string("batch,optimizer,layers") + (withTarget ? ",memory\n" : "\n");
    const char *optimizers[] = {"adam", "sgd"};
    for (int row = 0; row < rows; ++row) {
        const int batch = 8 << (engine() % 5);
        const int width = 16 + static_cast<int>(engine() % 64);
        const int depth = 1 + static_cast<int>(engine() % 4);
        std::string layers = "\"[";
        double activations = 0.0;
        double parameters = 0.0;
        for (int layer = 0; layer < depth; ++layer) {
            layers += (layer ? ", " : "") + std::string("('linear', ") + std::to_string(width) + ", " +
                      std::to_string(width * width) + "), ('ReLU', " + std::to_string(width) + ", 0)";
            activations += 2.0 * width;
            parameters += width * width;
        }
        layers += "]\"";
        const int optimizer = static_cast<int>(engine() % 2);
        const double memory = 1000.0 + parameters / 500.0 * (optimizer ? 1.0 : 2.0) + activations * batch / 400.0;
        text += std::to_string(batch) + ',' + optimizers[optimizer] + ',' + layers;
        text += withTarget ? ',' + std::to_string(memory) + '\n' : "\n";
    }
    return text;
}

Dataset datasetOf(const std::string &csv, const std::vector<std::string> &features = {"batch", "optimizer"})
{
    const auto table = gpumem::data::loadTableFromText(csv, "jobs.csv");
    gpumem::data::RoleRequest request;
    request.target = table.columnIndex("memory") ? "memory" : "";
    request.features = features;
    request.sequenceColumn = "layers";
    std::vector<std::string> warnings;
    return Dataset::fromTable(table, gpumem::data::assignRoles(table, request), gpumem::data::BadCellPolicy::Fail,
                              warnings);
}

std::vector<Eigen::Index> allRows(const Dataset &dataset)
{
    std::vector<Eigen::Index> rows;
    for (std::size_t row = 0; row < dataset.rowCount(); ++row)
        rows.push_back(static_cast<Eigen::Index>(row));
    return rows;
}

Hyperparameters smallModel(int epochs)
{
    Hyperparameters hyperparameters = gpumem::tests::smallNetworkHyperparameters(epochs);
    hyperparameters.setAssignment("layer_tokens=true");
    return hyperparameters;
}

// The "fitted" member of a saved model's model.json.
QJsonObject fittedOf(const std::string &folder)
{
    QFile file(QString::fromStdString(folder + "/model.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value("fitted").toObject();
}

gpumem::models::ComputeSettings cpu(std::uint64_t seed = 42)
{
    gpumem::models::ComputeSettings compute;
    compute.device = "cpu";
    compute.seed = seed;
    return compute;
}

} // namespace

class TestNeuralNetworkRegressor : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // The validation error people watch is in MiB: the best epoch's value is the RMSE,
    // on the validation rows (the seeded share of the training rows fit() sets aside),
    // of the model fit() leaves, which holds that epoch's weights.
    void reportsTheValidationRmseInMib()
    {
        const Dataset dataset = datasetOf(jobsCsv(64, 3));
        Hyperparameters hyperparameters = smallModel(4);
        hyperparameters.setAssignment("validation_fraction=0.25");
        NeuralNetworkRegressor model(hyperparameters, cpu());
        struct Epochs : gpumem::training::TrainingObserver
        {
            std::vector<gpumem::training::EpochProgress> seen;
            void epochFinished(const gpumem::training::EpochProgress &progress) override { seen.push_back(progress); }
        } epochs;
        const std::vector<Eigen::Index> rows = allRows(dataset);
        model.fit(dataset, rows, &epochs);
        QCOMPARE(epochs.seen.size(), std::size_t{4});

        const auto order = gpumem::data::shuffledRows(64, 42 + 7919);
        const Eigen::VectorXd predicted = model.predict(dataset);
        double squared = 0.0;
        for (std::size_t i = 0; i < 16; ++i) {
            const Eigen::Index row = rows[static_cast<std::size_t>(order[i])];
            squared += (predicted[row] - dataset.target()[row]) * (predicted[row] - dataset.target()[row]);
        }
        const double rmse = std::sqrt(squared / 16.0);
        const auto best = std::find_if(epochs.seen.rbegin(), epochs.seen.rend(), [](const auto &e) { return e.best; });
        QVERIFY(best != epochs.seen.rend());
        QVERIFY(std::isfinite(best->validationRmse));
        QVERIFY2(std::abs(best->validationRmse - rmse) <= 1e-3 * rmse, qPrintable(QString::number(rmse)));
    }

    void overfitsASmallDataset()
    {
        const Dataset dataset = datasetOf(jobsCsv(32, 1));
        NeuralNetworkRegressor model(smallModel(300), cpu());
        const auto result = model.fit(dataset, allRows(dataset));
        QCOMPARE(result.stopReason, gpumem::training::StopReason::Completed);
        QVERIFY2(result.epochs.back().trainLoss < 2e-3, qPrintable(QString::number(result.epochs.back().trainLoss)));
        const Eigen::VectorXd predicted = model.predict(dataset);
        const double relativeError =
            ((predicted - dataset.target()).array().abs() / dataset.target().array()).maxCoeff();
        QVERIFY2(relativeError < 0.02, qPrintable(QString::number(relativeError)));
    }

    // Eight jobs, each three times: twice with its memory, once with three times it
    // (a measurement the inputs cannot explain). On the log scale the squared error's
    // best fit for each job is the mean of the three, 3^(1/3) = 1.44 times the memory;
    // the Huber loss's is where two pulls of error/delta meet one of 1: error = delta/2,
    // so e^0.025 = 1.025 times it with huber_delta 0.05.
    void theHuberLossFollowsTheMajorityOfRepeatedJobs()
    {
        std::string csv;
        std::istringstream lines(jobsCsv(8, 11));
        for (std::string line; std::getline(lines, line);) {
            const std::size_t comma = line.rfind(',');
            if (csv.empty()) {
                csv = line + '\n';
                continue;
            }
            csv += line + '\n' + line + '\n';
            csv += line.substr(0, comma + 1) + std::to_string(3.0 * std::stod(line.substr(comma + 1))) + '\n';
        }
        const Dataset dataset = datasetOf(csv);
        for (const char *loss : {"mse", "huber"}) {
            Hyperparameters hyperparameters = smallModel(300);
            hyperparameters.setAssignment(std::string("loss=") + loss);
            NeuralNetworkRegressor model(hyperparameters, cpu());
            model.fit(dataset, allRows(dataset));
            const Eigen::VectorXd predicted = model.predict(dataset);
            const double expected = std::string(loss) == "mse" ? std::cbrt(3.0) : std::exp(0.05 / 2.0);
            for (Eigen::Index row = 0; row < predicted.size(); row += 3) {
                const double ratio = predicted[row] / dataset.target()[row];
                QVERIFY2(std::abs(ratio - expected) < 0.04,
                         qPrintable(QString("%1: row %2 predicted %3 times its memory, expected %4")
                                        .arg(loss)
                                        .arg(row)
                                        .arg(ratio)
                                        .arg(expected)));
            }
        }
    }

    void sameSeedGivesTheSamePredictions()
    {
        const Dataset dataset = datasetOf(jobsCsv(40, 2));
        std::vector<Eigen::VectorXd> predictions;
        for (std::uint64_t seed : {7, 7, 8}) {
            NeuralNetworkRegressor model(smallModel(3), cpu(seed));
            model.fit(dataset, allRows(dataset));
            predictions.push_back(model.predict(dataset));
        }
        QVERIFY(predictions[0] == predictions[1]);
        QVERIFY(predictions[0] != predictions[2]);
    }

    void savedModelPredictsBitForBit()
    {
        const Dataset dataset = datasetOf(jobsCsv(40, 3));
        NeuralNetworkRegressor model(smallModel(3), cpu());
        model.fit(dataset, allRows(dataset));
        QTemporaryDir folder;
        const std::string path = folder.filePath(QStringLiteral("model")).toStdString();
        model.save(path);
        model.save(path); // replacing an existing model folder works too
        QCOMPARE(QDir(folder.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot), QStringList{"model"});

        const NeuralNetworkRegressor loaded = NeuralNetworkRegressor::load(path, cpu());
        QCOMPARE(loaded.schema().target, std::string("memory"));
        QCOMPARE(loaded.hyperparameters().integer("d_model"), std::int64_t{16});
        // A file without the target and with its columns in another order predicts the same.
        const Dataset unlabelled = datasetOf(jobsCsv(40, 3, false));
        QVERIFY(loaded.predict(unlabelled) == model.predict(dataset));
    }

    void refusesDataWithoutATrainedColumn()
    {
        const Dataset dataset = datasetOf(jobsCsv(20, 4));
        NeuralNetworkRegressor model(smallModel(1), cpu());
        model.fit(dataset, allRows(dataset));
        const Dataset lacking = datasetOf(jobsCsv(20, 4), {"batch"});
        const auto error = gpumem::tests::raisedInputError([&] { model.predict(lacking); });
        QCOMPARE(std::string(error.what()),
                 std::string("the data has no categorical column 'optimizer', which the model was trained with"));
    }

    void refusesAFolderThatIsNotAModel()
    {
        QTemporaryDir folder;
        QVERIFY(gpumem::tests::writeFile(folder.filePath(QStringLiteral("model.json")),
                                         "{\"format\": \"something else\"}"));
        const auto error =
            gpumem::tests::raisedInputError([&] { NeuralNetworkRegressor::load(folder.path().toStdString(), cpu()); });
        QVERIFY2(error.file().find("model.json") != std::string::npos, error.what());
        QVERIFY2(error.message().find("not a gpumem model folder") == 0, error.what());
    }

    // With GPUMemNet's batch column the rows describe jobs the allocator simulation
    // can follow: the network takes its peak as one more input, keeps it in its
    // folder, and computes it again for the rows it predicts.
    void takesTheSimulatedAllocatorPeakWhereTheRowsDescribeJobs()
    {
        std::string csv = jobsCsv(40, 5);
        csv.replace(0, std::string("batch,").size(), "Batch Size,");
        const Dataset dataset = datasetOf(csv, {"Batch Size", "optimizer"});
        QVERIFY(gpumem::models::simulatedPeakMebibytes(dataset).has_value());
        QTemporaryDir folder;
        for (const bool simulated : {true, false}) {
            Hyperparameters hyperparameters = smallModel(2);
            hyperparameters.set("allocator_input", simulated);
            NeuralNetworkRegressor model(hyperparameters, cpu());
            model.fit(dataset, allRows(dataset));
            const std::string path = folder.filePath(simulated ? "with" : "without").toStdString();
            model.save(path);
            const QJsonObject fitted = fittedOf(path);
            QCOMPARE(fitted.value("simulated_peak_input").toBool(), simulated);
            // The batch size, the optimizer's two categories, the sequence's summaries and
            // the activations × batch size: the columns the schema encodes.
            const auto encoded =
                static_cast<int>(gpumem::data::FeatureEncoder(model.schema().encoding).featureNames().size());
            QCOMPARE(fitted.value("network").toObject().value("feature_count").toInt(), encoded + (simulated ? 1 : 0));
            const NeuralNetworkRegressor loaded = NeuralNetworkRegressor::load(path, cpu());
            QVERIFY(loaded.predict(dataset) == model.predict(dataset));
            QCOMPARE(loaded.architecture()[0].detail.find("simulated allocator peak") != std::string::npos, simulated);
            // The preview before training (describe-model, the model page) shows the same network.
            const auto preview =
                gpumem::models::describeArchitecture(hyperparameters, gpumem::models::architectureSizesOf(dataset));
            QCOMPARE(preview[0].detail, loaded.architecture()[0].detail);
            QCOMPARE(preview[0].parameters, loaded.architecture()[0].parameters);
        }
        // The batch column under another name: the rows do not say the batch size, and
        // the network learns without the input.
        const Dataset unnamed = datasetOf(jobsCsv(40, 5));
        QVERIFY(!gpumem::models::simulatedPeakMebibytes(unnamed).has_value());
        NeuralNetworkRegressor model(smallModel(1), cpu());
        model.fit(unnamed, allRows(unnamed));
        const std::string path = folder.filePath("unnamed").toStdString();
        model.save(path);
        QCOMPARE(fittedOf(path).value("simulated_peak_input").toBool(true), false);
    }

    // Layer tokens need layers among the training rows, as the preview's rule says
    // (models::takesLayerTokens): training rows of empty sequences make none.
    void trainingRowsWithoutLayersMakeNoLayerTokens()
    {
        std::string csv = "batch,optimizer,layers,memory\n";
        for (int row = 0; row < 24; ++row)
            csv += std::to_string(8 + row) + ",adam," + (row < 16 ? "\"[]\"" : "\"[('linear', 8, 64)]\"") + ',' +
                   std::to_string(1000 + 10 * row) + '\n';
        const Dataset dataset = datasetOf(csv);
        std::vector<Eigen::Index> withoutLayers(16);
        std::iota(withoutLayers.begin(), withoutLayers.end(), Eigen::Index{0});
        NeuralNetworkRegressor model(smallModel(1), cpu());
        model.fit(dataset, withoutLayers);
        QStringList names;
        for (const auto &block : model.architecture())
            names << QString::fromStdString(block.name);
        QCOMPARE(names, (QStringList{"Feature tokens", "BiGRU", "Transformer encoder", "Pooling", "Head"}));
        QVERIFY(model.predict(dataset).allFinite());
    }

    void describesTheArchitecture()
    {
        gpumem::models::ArchitectureSizes sizes;
        sizes.features = 5;
        sizes.layerTypes = 3;
        sizes.fieldsPerLayer = 2;
        sizes.typicalLayers = 10;
        const auto blocks = gpumem::models::describeArchitecture(smallModel(1), sizes);
        QStringList names;
        std::int64_t total = 0;
        for (const auto &block : blocks) {
            names << QString::fromStdString(block.name);
            total += block.parameters;
        }
        QCOMPARE(names,
                 (QStringList{"Feature tokens", "Layer tokens", "BiGRU", "Transformer encoder", "Pooling", "Head"}));
        // Feature tokens: 5 features × 16 × (weight + bias).
        QCOMPARE(blocks[0].parameters, std::int64_t{5 * 16 * 2});
        // Layer tokens: embedding (3 types + unknown) × 16, projection 2 × 16 + 16.
        QCOMPARE(blocks[1].parameters, std::int64_t{4 * 16 + 2 * 16 + 16});
        // Each direction of each GRU layer: 3 gates × (16·8 + 8·8 + 2·8); projection 16·16 + 16.
        QCOMPARE(blocks[2].parameters, std::int64_t{2 * 3 * (16 * 8 + 8 * 8 + 2 * 8) + 16 * 16 + 16});
        QVERIFY(total > 0);

        // The caption of describe-model and the Model page names what the blocks take in.
        using gpumem::models::describeNetworkInputs;
        QCOMPARE(describeNetworkInputs(smallModel(1), sizes),
                 std::string("bigru_transformer for 5 features and layer tokens (3 layer types)"));
        sizes.simulatedPeak = true;
        QCOMPARE(gpumem::models::describeArchitecture(smallModel(1), sizes)[0].parameters, std::int64_t{6 * 16 * 2});
        QCOMPARE(describeNetworkInputs(smallModel(1), sizes),
                 std::string("bigru_transformer for 5 features and the simulated allocator peak and layer tokens (3 "
                             "layer types)"));
        // Without per-layer fields there are no layer tokens, in the blocks or in words.
        sizes.fieldsPerLayer = 0;
        QCOMPARE(gpumem::models::describeArchitecture(smallModel(1), sizes)[1].name, std::string("BiGRU"));
        QCOMPARE(describeNetworkInputs(smallModel(1), sizes),
                 std::string("bigru_transformer for 5 features and the simulated allocator peak"));
        Hyperparameters withoutPeak = smallModel(1);
        withoutPeak.setAssignment("allocator_input=false");
        QCOMPARE(describeNetworkInputs(withoutPeak, sizes), std::string("bigru_transformer for 5 features"));
        withoutPeak.setAssignment("ensemble=3");
        QCOMPARE(describeNetworkInputs(withoutPeak, sizes),
                 std::string("bigru_transformer for 5 features; 3 such networks, averaged (the parameters are one "
                             "network's)"));
    }
};

QTEST_GUILESS_MAIN(TestNeuralNetworkRegressor)
#include "test_NeuralNetworkRegressor.moc"
