// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "RaisedInputError.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/Presets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <sstream>

using gpumem::models::Hyperparameters;

class TestHyperparameters : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void namesItsHyperparameters()
    {
        const Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
        QVERIFY(hyperparameters.contains("epochs"));
        QVERIFY(!hyperparameters.contains("epoch"));
        QVERIFY(!hyperparameters.contains(""));
        std::string expected;
        for (const auto &spec : hyperparameters.specs())
            expected += (expected.empty() ? "" : ", ") + spec.name;
        QCOMPARE(hyperparameters.namesText(), expected);
        QVERIFY(hyperparameters.namesText().rfind("architecture, layer_tokens, feature_tokens, d_model", 0) == 0);
        const auto error = gpumem::tests::raisedInputError([&] {
            Hyperparameters copy = hyperparameters;
            copy.setAssignment("bogus=1");
        });
        QCOMPARE(error.message(), "unknown hyperparameter 'bogus'; known: " + expected);
    }

    void startsAtTheDefaults()
    {
        const Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
        QCOMPARE(hyperparameters.choice("architecture"), std::string("bigru_transformer"));
        QCOMPARE(hyperparameters.integer("d_model"), std::int64_t{64});
        QCOMPARE(hyperparameters.real("learning_rate"), 4e-3);
        QCOMPARE(hyperparameters.real("validation_fraction"), 0.0);
        QCOMPARE(hyperparameters.boolean("log_target"), true);
        for (const auto &spec : hyperparameters.specs())
            QVERIFY2(!spec.help.empty() && spec.help.back() == '.', spec.name.c_str());
    }

    // The Model page greys out what the chosen network does not read.
    void namesTheHyperparametersATrainingIgnores()
    {
        Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
        using Names = std::vector<std::string>;
        QCOMPARE(gpumem::models::unusedNetworkHyperparameters(hyperparameters), (Names{"gru_dropout", "huber_delta"}));
        hyperparameters.setAssignment("loss=huber");
        hyperparameters.setAssignment("gru_layers=2");
        QCOMPARE(gpumem::models::unusedNetworkHyperparameters(hyperparameters), Names{});
        hyperparameters.setAssignment("architecture=transformer_only");
        QCOMPARE(gpumem::models::unusedNetworkHyperparameters(hyperparameters),
                 (Names{"gru_hidden", "gru_layers", "gru_dropout"}));
        hyperparameters.setAssignment("architecture=bigru_only");
        QCOMPARE(gpumem::models::unusedNetworkHyperparameters(hyperparameters),
                 (Names{"heads", "encoder_layers", "feedforward", "norm"}));
    }

    // A command without --preset trains the network the workbench starts with: its
    // `default` preset, which names every value it sets, sets them to the defaults.
    void theDefaultPresetIsTheDefaults()
    {
        const Hyperparameters defaults = gpumem::models::neuralNetworkHyperparameters();
        Hyperparameters preset = defaults;
        gpumem::models::applyHyperparameterFile(preset, gpumem::models::presetPath("default"));
        QCOMPARE(QString::fromStdString(preset.values().dump()), QString::fromStdString(defaults.values().dump()));
    }

    // Each assignment either reads back as the expected text or is refused with a
    // message that contains it.
    void readsAssignmentsOrNamesTheirFault_data()
    {
        addColumns<QString, bool, QString>("assignment", "accepted", "expected");
        addRow("integer", "epochs=20", true, "20");
        addRow("integer written as real", "epochs=2e1", true, "20");
        addRow("real", "learning_rate=0.0005", true, "0.0005");
        addRow("boolean", "log_target=off", true, "false");
        addRow("choice", "pooling=cls", true, "cls");
        addRow("another choice", "norm=post", true, "post");
        addRow("a width", "d_model=128", true, "128");
        addRow("unknown name", "dmodel=3", false, "unknown hyperparameter 'dmodel'; known: architecture");
        addRow("out of range", "epochs=0", false, "hyperparameter epochs: 0 is outside [1, 100000]");
        addRow("fraction", "epochs=2.5", false, "hyperparameter epochs: expected a whole number");
        addRow("not a number", "learning_rate=fast", false, "expected a number, not 'fast'");
        addRow("bad choice", "pooling=max", false, "expected one of mean, attention, cls");
        addRow("bad boolean", "log_target=maybe", false, "expected true or false");
        addRow("no equals", "epochs", false, "hyperparameter expects name=value");
    }

    void readsAssignmentsOrNamesTheirFault()
    {
        const auto [assignment, accepted, expected] =
            fetchColumns<QString, bool, QString>("assignment", "accepted", "expected");
        const std::string text = assignment.toStdString();
        Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
        if (!accepted) {
            const auto error = gpumem::tests::raisedInputError([&] { hyperparameters.setAssignment(text); });
            QVERIFY2(QString::fromUtf8(error.what()).contains(expected), error.what());
            return;
        }
        hyperparameters.setAssignment(text);
        const std::string name = assignment.section(QLatin1Char('='), 0, 0).toStdString();
        QCOMPARE(QString::fromStdString(hyperparameters.text(name)), expected);
    }

    void appliesJsonObjects()
    {
        Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
        hyperparameters.apply(
            gpumem::io::parseJson("{\"d_model\": 128, \"norm\": \"post\", \"layer_tokens\": false}", "p"),
            "preset.json");
        QCOMPARE(hyperparameters.integer("d_model"), std::int64_t{128});
        QCOMPARE(hyperparameters.choice("norm"), std::string("post"));
        QCOMPARE(hyperparameters.boolean("layer_tokens"), false);
        const auto error = gpumem::tests::raisedInputError(
            [&] { hyperparameters.apply(gpumem::io::parseJson("{\"heads\": \"four\"}", "p"), "preset.json"); });
        QCOMPARE(std::string(error.what()), std::string("preset.json: hyperparameter heads: expected a whole number"));
    }

    void describesEveryHyperparameterAsJson()
    {
        const Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
        std::ostringstream out;
        gpumem::io::JsonWriter writer(out);
        hyperparameters.writeDescriptions(writer);
        const QJsonArray descriptions = QJsonDocument::fromJson(QByteArray::fromStdString(out.str())).array();
        QCOMPARE(descriptions.size(), static_cast<qsizetype>(hyperparameters.specs().size()));
        const QJsonObject epochs = descriptions.at(23).toObject();
        QCOMPARE(epochs.value("name").toString(), QStringLiteral("epochs"));
        QCOMPARE(epochs.value("type").toString(), QStringLiteral("integer"));
        QCOMPARE(epochs.value("default").toInt(), 60);
        QCOMPARE(epochs.value("maximum").toInt(), 100000);
        QCOMPARE(epochs.value("unit").toString(), QStringLiteral("epochs"));
    }
};

QTEST_GUILESS_MAIN(TestHyperparameters)
#include "test_Hyperparameters.moc"
