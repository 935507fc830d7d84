// SPDX-License-Identifier: GPL-3.0-or-later
#include "UiTestSupport.h"
#include "io/Json.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/ArchitectureView.h"
#include "ui/pages/ModelPage.h"
#include "ui/widgets/HyperparameterForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

class TestModelPage : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { gpumem::tests::isolateSettings("test_ModelPage"); }

    void generatesFormFromSpecs()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::ModelPage page(&state);
        // d_model: integer 8 to 1024, "Width of every token vector inside the model."
        auto *dModel = page.findChild<QSpinBox *>(QStringLiteral("hp_d_model"));
        QVERIFY(dModel);
        QCOMPARE(dModel->minimum(), 8);
        QCOMPARE(dModel->maximum(), 1024);
        QCOMPARE(dModel->value(), 64);
        QVERIFY(dModel->toolTip().contains(QStringLiteral("Width of every token vector inside the model.")));
        // Out-of-range input is clamped by the spin box, never reaching core.
        dModel->setValue(5000);
        QCOMPARE(dModel->value(), 1024);

        auto *rate = page.findChild<QDoubleSpinBox *>(QStringLiteral("hp_learning_rate"));
        QVERIFY(rate);
        QCOMPARE(rate->minimum(), 1e-6);
        QCOMPARE(rate->maximum(), 1.0);
        QCOMPARE(rate->value(), 0.004);

        auto *schedule = page.findChild<QComboBox *>(QStringLiteral("hp_schedule"));
        QVERIFY(schedule);
        QStringList items;
        for (int index = 0; index < schedule->count(); ++index)
            items << schedule->itemText(index);
        QCOMPARE(items, QStringList({QStringLiteral("one_cycle"), QStringLiteral("cosine"), QStringLiteral("plateau"),
                                     QStringLiteral("constant")}));
        QVERIFY(page.findChild<QCheckBox *>(QStringLiteral("hp_log_target"))->isChecked());
        // One editor per spec: the form has no field of its own making.
        QCOMPARE(page.form()->findChildren<QSpinBox *>().size() + page.form()->findChildren<QDoubleSpinBox *>().size() +
                     page.form()->findChildren<QCheckBox *>().size() + page.form()->findChildren<QComboBox *>().size(),
                 static_cast<qsizetype>(state.hyperparameters().specs().size()));
    }

    void disablesUnusedFieldsMarksThePresetAndTheFieldAtFault()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::ModelPage page(&state);
        QVERIFY(page.applyPreset(QStringLiteral("fast")));
        QCOMPARE(page.presetState(), QString());
        // bigru_only has no encoder: its fields are disabled, the GRU's stay.
        auto *architecture = page.findChild<QComboBox *>(QStringLiteral("hp_architecture"));
        architecture->setCurrentIndex(architecture->findText(QStringLiteral("bigru_only")));
        QVERIFY(!page.findChild<QSpinBox *>(QStringLiteral("hp_heads"))->isEnabled());
        QVERIFY(!page.findChild<QSpinBox *>(QStringLiteral("hp_encoder_layers"))->isEnabled());
        QVERIFY(page.findChild<QSpinBox *>(QStringLiteral("hp_gru_hidden"))->isEnabled());
        QCOMPARE(page.presetState(), QStringLiteral("modified"));
        architecture->setCurrentIndex(architecture->findText(QStringLiteral("transformer_only")));
        QVERIFY(page.findChild<QSpinBox *>(QStringLiteral("hp_heads"))->isEnabled());
        QVERIFY(!page.findChild<QSpinBox *>(QStringLiteral("hp_gru_hidden"))->isEnabled());

        // Patience without a validation share is refused, and the field at fault is marked.
        page.findChild<QDoubleSpinBox *>(QStringLiteral("hp_validation_fraction"))->setValue(0.0);
        page.findChild<QSpinBox *>(QStringLiteral("hp_patience"))->setValue(5);
        QVERIFY(state.hyperparameters().integer("patience") != 5);
        QVERIFY(!page.findChild<QSpinBox *>(QStringLiteral("hp_patience"))->styleSheet().isEmpty());
        QVERIFY(page.findChild<QSpinBox *>(QStringLiteral("hp_heads"))->styleSheet().isEmpty());
    }

    void architectureFollowsTheValues()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::ModelPage page(&state);
        gpumem::ui::ArchitectureView *view = page.architectureView();
        QStringList names;
        for (const auto &block : view->blocks())
            names << block.name;
        QVERIFY2(names.join(QLatin1Char(' ')).contains(QStringLiteral("BiGRU")),
                 qPrintable(names.join(QLatin1Char(','))));
        const auto before = view->totalParameters();
        QVERIFY(before > 0);
        auto *feedforward = page.findChild<QSpinBox *>(QStringLiteral("hp_feedforward"));
        feedforward->setValue(256);
        QCOMPARE(state.hyperparameters().integer("feedforward"), std::int64_t{256});
        // Each of the 2 encoder layers holds two d_model×feedforward matrices plus biases:
        // 128 more hidden units add 2 × (64·128 + 128 + 128·64) = 33,024 parameters per layer.
        QCOMPARE(view->totalParameters() - before, std::int64_t{2 * (64 * 128 + 128 + 128 * 64)});

        // An invalid combination (heads must divide d_model) shows core's message instead.
        page.findChild<QSpinBox *>(QStringLiteral("hp_heads"))->setValue(5);
        QVERIFY(view->blocks().empty());
    }

    void appliesAndSavesPresets()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::ModelPage page(&state);
        QVERIFY(page.applyPreset(QStringLiteral("fast")));
        // resources/presets/fast.json: d_model 32, epochs 12, batch_size 128.
        QCOMPARE(state.hyperparameters().integer("d_model"), std::int64_t{32});
        QCOMPARE(state.hyperparameters().integer("epochs"), std::int64_t{12});
        QCOMPARE(page.findChild<QSpinBox *>(QStringLiteral("hp_batch_size"))->value(), 128);

        QTemporaryDir directory;
        const QString path = directory.filePath(QStringLiteral("mine.json"));
        page.findChild<QSpinBox *>(QStringLiteral("hp_epochs"))->setValue(7);
        QVERIFY(page.savePresetFile(path));
        const auto saved = gpumem::io::readJsonFile(path.toStdString());
        QCOMPARE(gpumem::io::toNumber(gpumem::io::member(saved, "epochs")), 7.0);
        QCOMPARE(gpumem::io::toNumber(gpumem::io::member(saved, "d_model")), 32.0);

        QVERIFY(page.applyPreset(QStringLiteral("default")));
        QCOMPARE(state.hyperparameters().integer("epochs"), std::int64_t{60});
        QVERIFY(page.loadPresetFile(path));
        QCOMPARE(state.hyperparameters().integer("epochs"), std::int64_t{7});
        QVERIFY(!page.loadPresetFile(directory.filePath(QStringLiteral("missing.json"))));
    }
};

QTEST_MAIN(TestModelPage)
#include "test_ModelPage.moc"
