// SPDX-License-Identifier: GPL-3.0-or-later
// Grouped feature tokens and the encoder layer's own attention arithmetic.
#include "DataTables.h"
#include "SmallNetwork.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkRegressor.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using gpumem::models::BiGruTransformer;
using gpumem::models::BiGruTransformerOptions;

namespace {

BiGruTransformerOptions smallOptions()
{
    BiGruTransformerOptions options = gpumem::tests::smallNetworkOptions();
    options.featureCount = 4;
    options.heads = 4;
    return options;
}

// The encoder layer computed with LibTorch's own MultiheadAttention module, whose
// weights the layer holds: the reference for the layer's hand-written attention.
// tokens: [batch, tokens, d_model], batch first as the layer takes them (the module
// takes them sequence first).
torch::Tensor referenceLayer(gpumem::models::EncoderLayerImpl &layer, const torch::Tensor &tokens,
                             const torch::Tensor &padding)
{
    auto modules = layer.named_children();
    auto attention = modules["attention"]->as<torch::nn::MultiheadAttention>();
    auto attentionNorm = modules["attention_norm"]->as<torch::nn::LayerNorm>();
    auto feedForwardNorm = modules["feedforward_norm"]->as<torch::nn::LayerNorm>();
    auto expand = modules["expand"]->as<torch::nn::Linear>();
    auto contract = modules["contract"]->as<torch::nn::Linear>();
    const auto normed = attentionNorm->forward(tokens).transpose(0, 1); // [tokens, batch, d_model]
    const auto attended =
        tokens + std::get<0>(attention->forward(normed, normed, normed, padding, false)).transpose(0, 1);
    return attended + contract->forward(torch::gelu(expand->forward(feedForwardNorm->forward(attended))));
}

gpumem::data::Dataset datasetOf(const std::string &csv)
{
    const auto table = gpumem::data::loadTableFromText(csv, "jobs.csv");
    gpumem::data::RoleRequest request;
    request.target = "memory";
    request.features = {"batch", "optimizer"};
    request.sequenceColumn = "layers";
    std::vector<std::string> warnings;
    return gpumem::data::Dataset::fromTable(table, gpumem::data::assignRoles(table, request),
                                            gpumem::data::BadCellPolicy::Fail, warnings);
}

std::string jobsCsv()
{
    std::string text = "batch,optimizer,layers,memory\n";
    const char *optimizers[] = {"adam", "sgd", "rmsprop"};
    for (int row = 0; row < 30; ++row) {
        const int batch = 8 << (row % 4);
        const int width = 16 + 7 * (row % 5);
        text += std::to_string(batch) + ',' + optimizers[row % 3] + ",\"[('linear', " + std::to_string(width) + ", " +
                std::to_string(width * width) + "), ('ReLU', " + std::to_string(width) + ", 0)]\"," +
                std::to_string(1000 + width * width / 50 + batch * (1 + row % 3)) + '\n';
    }
    return text;
}

// A small network trained for two epochs on every row it is given.
gpumem::models::Hyperparameters quickHyperparameters()
{
    auto hyperparameters = gpumem::models::neuralNetworkHyperparameters();
    for (const char *assignment : {"d_model=16", "gru_hidden=8", "heads=2", "encoder_layers=1", "feedforward=32",
                                   "head_hidden=8", "epochs=2", "validation_fraction=0", "ensemble=1"})
        hyperparameters.setAssignment(assignment);
    return hyperparameters;
}

std::vector<Eigen::Index> allRows(std::size_t count)
{
    std::vector<Eigen::Index> rows;
    for (std::size_t row = 0; row < count; ++row)
        rows.push_back(static_cast<Eigen::Index>(row));
    return rows;
}

} // namespace

class TestFeatureTokens : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void attentionMatchesTheLibraryModule_data()
    {
        addColumns<int, bool>("tokens", "padded");
        // Few tokens and many, with and without padded keys.
        addRow("few tokens", 5, false);
        addRow("few tokens, padded", 7, true);
        addRow("many tokens", 40, false);
        addRow("many tokens, padded", 40, true);
    }

    void attentionMatchesTheLibraryModule()
    {
        QFETCH(int, tokens);
        QFETCH(bool, padded);
        torch::manual_seed(5);
        gpumem::models::EncoderLayer layer(16, 4, 32, 0.0, true);
        const auto input = torch::randn({3, tokens, 16}); // [batch, tokens, d_model]
        torch::Tensor padding;
        if (padded) {
            padding = torch::zeros({3, tokens}, torch::kBool);
            padding.index_put_({1, torch::indexing::Slice(tokens - 2, tokens)}, true);
            padding.index_put_({2, torch::indexing::Slice(1, tokens)}, true);
        }
        const auto actual = layer->forward(input, padding);
        const auto expected = referenceLayer(*layer, input, padding);
        const double difference = (actual - expected).abs().max().item<double>();
        QVERIFY2(difference < 1e-5, qPrintable(QString::number(difference)));
        // The gradients agree too: training sees the same function.
        auto attention = layer->named_children()["attention"]->as<torch::nn::MultiheadAttention>();
        const auto gradient = [&](const torch::Tensor &output) {
            attention->in_proj_weight.mutable_grad() = torch::Tensor();
            output.square().sum().backward();
            return attention->in_proj_weight.grad().clone();
        };
        const auto ours = gradient(layer->forward(input, padding));
        const auto theirs = gradient(referenceLayer(*layer, input, padding));
        QVERIFY((ours - theirs).abs().max().item<double>() < 1e-4);
    }

    void groupedTokensAddUpTheirColumns()
    {
        // Columns 1 and 2 share token 1. With equal weights for the two, the network
        // computes what a one-token-per-column network computes on their sum.
        torch::manual_seed(6);
        auto groupedOptions = smallOptions();
        groupedOptions.featureTokenOf = {0, 1, 1, 2};
        BiGruTransformer grouped(groupedOptions);
        auto plainOptions = smallOptions();
        plainOptions.featureCount = 3;
        BiGruTransformer plain(plainOptions);
        torch::NoGradGuard noGradients;
        auto groupedParameters = grouped->named_parameters();
        for (auto &item : plain->named_parameters())
            if (item.key() != "feature_weight")
                item.value().copy_(groupedParameters[item.key()]);
        auto weight = groupedParameters["feature_weight"];
        weight[2].copy_(weight[1]);
        plain->named_parameters()["feature_weight"].copy_(weight.index({torch::tensor({0, 1, 3})}));
        grouped->eval();
        plain->eval();

        const auto features = torch::randn({5, 4});
        const auto summed = torch::stack(
            {features.select(1, 0), features.select(1, 1) + features.select(1, 2), features.select(1, 3)}, 1);
        const auto expected = plain->forward(summed, {}, {}, {});
        const auto actual = grouped->forward(features, {}, {}, {});
        QVERIFY2((actual - expected).abs().max().item<double>() < 1e-5,
                 qPrintable(QString::number((actual - expected).abs().max().item<double>())));
    }

    void eigenCopyGroupsTheSameWay()
    {
        torch::manual_seed(7);
        auto options = smallOptions();
        options.featureTokenOf = {0, 0, 1, 1};
        options.layerTypeCount = 3;
        BiGruTransformer network(options);
        network->eval();
        const gpumem::models::EigenNetwork copy(*network);
        torch::NoGradGuard noGradients;
        const auto features = torch::randn({1, 4});
        for (std::int64_t layers : {0, 3}) {
            const auto [expected, actual] = gpumem::tests::predictRandomLayers(network, copy, features, layers);
            QVERIFY2(std::fabs(actual - expected) < 1e-4,
                     qPrintable(QStringLiteral("%1 vs %2").arg(actual).arg(expected)));
        }
    }

    void folderFromBeforeFeatureTokensLoadsAsPerColumn()
    {
        // Regression: model folders saved before feature_tokens existed have one token per
        // column; loading them with the new default (grouped) would build the wrong network.
        // Those saved before ensembles existed hold one network, not the default's three.
        const auto dataset = datasetOf(jobsCsv());
        auto hyperparameters = quickHyperparameters();
        hyperparameters.setAssignment("feature_tokens=per_column");
        gpumem::models::ComputeSettings cpu;
        cpu.device = "cpu";
        gpumem::models::NeuralNetworkRegressor model(hyperparameters, cpu);
        model.fit(dataset, allRows(dataset.rowCount()));
        QTemporaryDir folder;
        const std::string path = folder.filePath(QStringLiteral("model")).toStdString();
        model.save(path);

        QFile metadata(QString::fromStdString(path + "/model.json"));
        QVERIFY(metadata.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(metadata.readAll());
        metadata.close();
        const QString before = text;
        text.remove(QRegularExpression(QStringLiteral("\"feature_tokens\"\\s*:\\s*\"per_column\"\\s*,")));
        QVERIFY(text != before);
        const QString withEnsemble = text;
        // The last hyperparameter written: the comma before it goes too.
        text.remove(QRegularExpression(QStringLiteral(",\\s*\"ensemble\"\\s*:\\s*1")));
        QVERIFY(text != withEnsemble);
        QVERIFY(metadata.open(QIODevice::WriteOnly | QIODevice::Truncate));
        metadata.write(text.toUtf8());
        metadata.close();

        const auto loaded = gpumem::models::NeuralNetworkRegressor::load(path, cpu);
        QCOMPARE(loaded.hyperparameters().choice("feature_tokens"), std::string("per_column"));
        QCOMPARE(loaded.hyperparameters().integer("ensemble"), std::int64_t{1});
        QVERIFY(loaded.predict(dataset) == model.predict(dataset));
    }

    void groupedModelRoundTrips()
    {
        const auto dataset = datasetOf(jobsCsv());
        const auto hyperparameters = quickHyperparameters();
        QCOMPARE(hyperparameters.choice("feature_tokens"), std::string("grouped"));
        gpumem::models::ComputeSettings cpu;
        cpu.device = "cpu";
        gpumem::models::NeuralNetworkRegressor model(hyperparameters, cpu);
        model.fit(dataset, allRows(dataset.rowCount()));
        // batch, optimizer (3 one-hot columns), the layer counts and the layer sizes.
        QVERIFY(model.architecture().front().detail.find("in 4 tokens") != std::string::npos);
        QTemporaryDir folder;
        const std::string path = folder.filePath(QStringLiteral("model")).toStdString();
        model.save(path);
        const auto loaded = gpumem::models::NeuralNetworkRegressor::load(path, cpu);
        QVERIFY(loaded.predict(dataset) == model.predict(dataset));
    }
};

QTEST_APPLESS_MAIN(TestFeatureTokens)
#include "test_FeatureTokens.moc"
