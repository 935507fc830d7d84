// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "SmallNetwork.h"

#include <QTest>

using gpumem::models::BiGruTransformer;
using gpumem::models::BiGruTransformerOptions;

namespace {

BiGruTransformerOptions smallOptions(const QString &architecture, const QString &pooling)
{
    BiGruTransformerOptions options = gpumem::tests::smallNetworkOptions();
    options.architecture = architecture.toStdString();
    options.pooling = pooling.toStdString();
    options.featureCount = 3;
    options.layerTypeCount = 5;
    options.gruLayers = 2;
    options.heads = 2;
    return options;
}

void addArchitectureRows()
{
    addColumns<QString, QString>("architecture", "pooling");
    for (const char *architecture : {"bigru_transformer", "transformer_bigru", "transformer_only", "bigru_only"})
        for (const char *pooling : {"mean", "attention", "cls"})
            QTest::addRow("%s/%s", architecture, pooling) << architecture << pooling;
}

// The small network of the current addArchitectureRows() row.
BiGruTransformerOptions optionsOfThisRow()
{
    QFETCH(QString, architecture);
    QFETCH(QString, pooling);
    return smallOptions(architecture, pooling);
}

} // namespace

class TestBiGruTransformer : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void producesOneValuePerRow_data() { addArchitectureRows(); }

    void producesOneValuePerRow()
    {
        torch::manual_seed(1);
        BiGruTransformer network(optionsOfThisRow());
        const auto features = torch::randn({4, 3});                     // [batch, features]
        const auto types = torch::randint(1, 5, {4, 6}, torch::kInt64); // [batch, layers]
        const auto fields = torch::randn({4, 6, 2});                    // [batch, layers, fields]
        const auto counts = torch::tensor(std::vector<std::int64_t>{6, 3, 1, 0}, torch::kInt64);
        const auto output = network->forward(features, types, fields, counts);
        QCOMPARE(output.sizes().vec(), (std::vector<std::int64_t>{4}));
        QVERIFY(torch::isfinite(output).all().item<bool>());
        // Without layer tokens the same network reads the features alone.
        const auto tabular = network->forward(features, {}, {}, {});
        QCOMPARE(tabular.sizes().vec(), (std::vector<std::int64_t>{4}));
    }

    void paddingNeverChangesAPrediction_data() { addArchitectureRows(); }

    void paddingNeverChangesAPrediction()
    {
        torch::manual_seed(2);
        BiGruTransformer network(optionsOfThisRow());
        network->eval();
        torch::NoGradGuard noGradients;
        const std::vector<std::int64_t> counts{5, 2, 0, 3};
        const std::int64_t padded = 7; // longer than any row: every row carries padding
        auto types = torch::randint(1, 5, {4, padded}, torch::kInt64);
        auto fields = torch::randn({4, padded, 2});
        // Garbage in the padding must not matter either.
        types.index_put_({torch::indexing::Slice(), torch::indexing::Slice(5, padded)}, 4);
        fields.index_put_({torch::indexing::Slice(), torch::indexing::Slice(5, padded)}, 1e3);
        const auto features = torch::randn({4, 3});
        const auto batched = network->forward(features, types, fields, torch::tensor(counts, torch::kInt64)); // [4]
        for (std::int64_t row = 0; row < 4; ++row) {
            const std::int64_t count = counts[static_cast<std::size_t>(row)];
            // The same row alone, cut to its own length: no padding at all.
            const auto alone = network->forward(features.narrow(0, row, 1), types.narrow(0, row, 1).narrow(1, 0, count),
                                                fields.narrow(0, row, 1).narrow(1, 0, count),
                                                torch::tensor(std::vector<std::int64_t>{count}, torch::kInt64));
            const double difference = std::fabs(alone.item<double>() - batched[row].item<double>());
            QVERIFY2(difference < 1e-5, qPrintable(QStringLiteral("row %1 differs by %2").arg(row).arg(difference)));
        }
    }

    void eigenCopyComputesTheSameFunction_data() { addArchitectureRows(); }

    void eigenCopyComputesTheSameFunction()
    {
        for (const bool postNorm : {false, true}) {
            torch::manual_seed(3);
            auto options = optionsOfThisRow();
            options.preNorm = !postNorm;
            BiGruTransformer network(options);
            network->eval();
            const gpumem::models::EigenNetwork copy(*network);
            torch::NoGradGuard noGradients;
            const auto features = torch::randn({1, 3});
            for (std::int64_t layers : {0, 1, 6}) {
                const auto [expected, actual] = gpumem::tests::predictRandomLayers(network, copy, features, layers);
                QVERIFY2(std::fabs(actual - expected) < 1e-4,
                         qPrintable(QStringLiteral("%1 layers: %2 vs %3").arg(layers).arg(actual).arg(expected)));
            }
        }
    }

    // A model folder's weights are checked against this count before its network is built.
    void countsItsParametersWithoutBuildingThem_data() { addArchitectureRows(); }

    void countsItsParametersWithoutBuildingThem()
    {
        for (const bool layerTokens : {true, false}) {
            BiGruTransformerOptions options = optionsOfThisRow();
            if (!layerTokens)
                options.layerTypeCount = 0;
            options.featureTokenOf = {0, 0, 1}; // two of the three columns share a token
            std::int64_t built = 0;
            for (const auto &parameter : BiGruTransformer(options)->parameters())
                built += parameter.numel();
            QCOMPARE(options.parameterCount(), built);
        }
    }

    void refusesHeadsThatDoNotDivideTheWidth()
    {
        auto options = smallOptions(QStringLiteral("bigru_transformer"), QStringLiteral("mean"));
        options.heads = 3;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BiGruTransformer{options});
    }
};

QTEST_GUILESS_MAIN(TestBiGruTransformer)
#include "test_BiGruTransformer.moc"
