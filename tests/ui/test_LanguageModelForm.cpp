// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "UiTestSupport.h"
#include "io/InputError.h"
#include "ui/widgets/LanguageModelForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

#include <string>
#include <vector>

using namespace gpumem;

namespace {

// The controls of a form, found as the page's tests and style sheets find them.
struct Controls
{
    explicit Controls(ui::LanguageModelForm &form)
        : architecture(form.findChild<QComboBox *>(QStringLiteral("architectureBox")))
        , sequenceLength(form.findChild<QSpinBox *>(QStringLiteral("sequenceLengthBox")))
        , precision(form.findChild<QComboBox *>(QStringLiteral("precisionBox")))
        , optimizer(form.findChild<QComboBox *>(QStringLiteral("recipeOptimizerBox")))
        , loraRank(form.findChild<QSpinBox *>(QStringLiteral("loraRankBox")))
        , loraTargets(form.findChild<QLineEdit *>(QStringLiteral("loraTargetsEdit")))
        , qlora(form.findChild<QCheckBox *>(QStringLiteral("qloraBox")))
        , checkpointing(form.findChild<QCheckBox *>(QStringLiteral("checkpointingBox")))
        , mode(form.findChild<QComboBox *>(QStringLiteral("modeBox")))
        , generatedTokens(form.findChild<QSpinBox *>(QStringLiteral("generatedTokensBox")))
    {
    }

    bool found() const
    {
        return architecture && sequenceLength && precision && optimizer && loraRank && loraTargets && qlora &&
               checkpointing && mode && generatedTokens;
    }

    void choose(QComboBox *combo, const QString &data) const
    {
        const int index = combo->findData(data);
        QVERIFY2(index >= 0, qPrintable(data));
        combo->setCurrentIndex(index);
    }

    // Picks a shipped config as a user does, from the list.
    void pickConfig(const QString &name) const
    {
        const int index = architecture->findText(name);
        QVERIFY2(index >= 0, qPrintable(name));
        architecture->setCurrentIndex(index);
    }

    // Fills in the recipe control by control, as a user does.
    void fillIn(const QString &config, int tokens, const QString &precisionName, const QString &optimizerName, int rank,
                const QString &targets) const
    {
        pickConfig(config);
        sequenceLength->setValue(tokens);
        choose(precision, precisionName);
        choose(optimizer, optimizerName);
        loraRank->setValue(rank);
        loraTargets->setText(targets);
    }

    QComboBox *architecture;
    QSpinBox *sequenceLength;
    QComboBox *precision;
    QComboBox *optimizer;
    QSpinBox *loraRank;
    QLineEdit *loraTargets;
    QCheckBox *qlora;
    QCheckBox *checkpointing;
    QComboBox *mode;
    QSpinBox *generatedTokens;
};

} // namespace

class TestLanguageModelForm : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void init() { tests::isolateSettings("test_LanguageModelForm"); }

    void buildsTheConfigurationOfItsControls()
    {
        ui::LanguageModelForm form;
        const Controls controls(form);
        QVERIFY(controls.found());
        controls.fillIn(QStringLiteral("llama-3.2-1b"), 256, QStringLiteral("bfloat16"), QStringLiteral("adamw_8bit"),
                        16, QStringLiteral(" q_proj , v_proj,,o_proj "));
        controls.checkpointing->setChecked(true);
        controls.qlora->setChecked(true);

        const estimate::EstimateConfiguration model = form.configuration();
        QCOMPARE(model.architecture, std::string("llama-3.2-1b"));
        QVERIFY(model.modelPath.empty());
        QVERIFY(model.inputShapes.empty());
        QCOMPARE(model.sequenceLength, std::int64_t{256});
        QCOMPARE(model.dtype, std::string("bfloat16"));
        QVERIFY(model.autocast.empty());
        QCOMPARE(model.optimizer, std::string("adamw_8bit"));
        QCOMPARE(model.loraRank, std::int64_t{16});
        QCOMPARE(model.loraTargets, (std::vector<std::string>{"q_proj", "v_proj", "o_proj"}));
        QVERIFY(model.qlora);
        QVERIFY(model.gradientCheckpointing);
        QCOMPARE(model.mode, std::string("training"));
        QCOMPARE(model.generatedTokens, std::int64_t{0});
    }

    // Issue 53: the GPUs a job is spread over, as --gpus, --sharding and --tensor-parallel give them.
    void spreadsOverSeveralGpus()
    {
        ui::LanguageModelForm form;
        const Controls controls(form);
        controls.pickConfig(QStringLiteral("llama-3.1-8b"));
        auto *gpus = form.findChild<QSpinBox *>(QStringLiteral("gpusBox"));
        auto *sharding = form.findChild<QComboBox *>(QStringLiteral("shardingBox"));
        auto *tensorParallel = form.findChild<QSpinBox *>(QStringLiteral("tensorParallelBox"));
        QVERIFY(gpus && sharding && tensorParallel);
        // One GPU: no scheme, nothing split, whatever the other boxes say.
        QCOMPARE(gpus->value(), 1);
        QVERIFY(!sharding->isEnabled());
        QVERIFY(!tensorParallel->isEnabled());
        estimate::EstimateConfiguration model = form.configuration();
        QCOMPARE(model.gpus, std::int64_t{1});
        QCOMPARE(model.sharding, std::string("none"));
        QCOMPARE(model.tensorParallel, std::int64_t{1});

        gpus->setValue(16);
        controls.choose(sharding, QStringLiteral("zero3"));
        tensorParallel->setValue(2);
        QVERIFY(sharding->isEnabled());
        model = form.configuration();
        QCOMPARE(model.gpus, std::int64_t{16});
        QCOMPARE(model.sharding, std::string("zero3"));
        QCOMPARE(model.tensorParallel, std::int64_t{2});
        QCOMPARE(estimate::shardingPlanOf(model).dataParallel(), std::int64_t{8});

        // Every GPU splitting the layers leaves none to share the model among.
        tensorParallel->setValue(16);
        QVERIFY(!sharding->isEnabled());
        QCOMPARE(form.configuration().sharding, std::string("none"));
    }

    void mapsThePrecision_data()
    {
        addColumns<QString, QString, QString>("precision", "dtype", "autocast");
        addRow("float32", "float32", "float32", "");
        addRow("bfloat16", "bfloat16", "bfloat16", "");
        addRow("float16", "float16", "float16", "");
        addRow("autocast bfloat16", "autocast_bfloat16", "float32", "bfloat16");
        addRow("autocast float16", "autocast_float16", "float32", "float16");
    }
    void mapsThePrecision()
    {
        const auto [precision, dtype, autocast] =
            fetchColumns<QString, QString, QString>("precision", "dtype", "autocast");
        ui::LanguageModelForm form;
        const Controls controls(form);
        controls.pickConfig(QStringLiteral("gpt2"));
        controls.choose(controls.precision, precision);
        const estimate::EstimateConfiguration model = form.configuration();
        QCOMPARE(QString::fromStdString(model.dtype), dtype);
        QCOMPARE(QString::fromStdString(model.autocast), autocast);
    }

    void disablesWhatDoesNotApply()
    {
        ui::LanguageModelForm form;
        const Controls controls(form);
        controls.pickConfig(QStringLiteral("llama-3.2-1b"));
        controls.choose(controls.mode, QStringLiteral("training"));
        controls.choose(controls.precision, QStringLiteral("bfloat16"));

        // A full fine-tune: no targets, no QLoRA, and the tooltips say why.
        controls.loraRank->setValue(0);
        QVERIFY(!controls.loraTargets->isEnabled());
        QVERIFY2(controls.loraTargets->toolTip().contains(QStringLiteral("LoRA rank")),
                 qPrintable(controls.loraTargets->toolTip()));
        QVERIFY(!controls.qlora->isEnabled());
        QVERIFY2(controls.qlora->toolTip().contains(QStringLiteral("LoRA rank")),
                 qPrintable(controls.qlora->toolTip()));
        controls.qlora->setChecked(true);
        estimate::EstimateConfiguration model = form.configuration();
        QCOMPARE(model.loraRank, std::int64_t{0});
        QVERIFY(model.loraTargets.empty());
        QVERIFY(!model.qlora);

        // LoRA in half precision takes targets and QLoRA.
        controls.loraRank->setValue(8);
        QVERIFY(controls.loraTargets->isEnabled());
        QVERIFY(controls.qlora->isEnabled());
        QVERIFY(!controls.qlora->toolTip().contains(QStringLiteral("LoRA rank")));
        QVERIFY(form.configuration().qlora);

        // QLoRA computes in half precision: float32 and autocast leave it out.
        for (const QString &precision : {QStringLiteral("float32"), QStringLiteral("autocast_bfloat16")}) {
            controls.choose(controls.precision, precision);
            QVERIFY(!controls.qlora->isEnabled());
            QVERIFY2(controls.qlora->toolTip().contains(QStringLiteral("half precision")),
                     qPrintable(controls.qlora->toolTip()));
            QVERIFY(!form.configuration().qlora);
        }

        // Inference: no optimizer, no checkpointing; the tokens generated count.
        QVERIFY(!controls.generatedTokens->isEnabled());
        controls.checkpointing->setChecked(true);
        controls.choose(controls.mode, QStringLiteral("inference"));
        QVERIFY(!controls.optimizer->isEnabled());
        QVERIFY(!controls.checkpointing->isEnabled());
        QVERIFY(controls.generatedTokens->isEnabled());
        controls.generatedTokens->setValue(64);
        model = form.configuration();
        QCOMPARE(model.mode, std::string("inference"));
        QCOMPARE(model.generatedTokens, std::int64_t{64});
        QVERIFY(!model.gradientCheckpointing);
    }

    void proposesTheFamilysAttentionProjections()
    {
        ui::LanguageModelForm form;
        const Controls controls(form);
        controls.loraRank->setValue(16);
        controls.pickConfig(QStringLiteral("llama-3.2-1b"));
        QCOMPARE(controls.loraTargets->text(), QStringLiteral("q_proj,v_proj"));
        // The tooltip names every linear layer of the family.
        QVERIFY2(controls.loraTargets->toolTip().contains(QStringLiteral("gate_proj")),
                 qPrintable(controls.loraTargets->toolTip()));
        controls.pickConfig(QStringLiteral("gpt2"));
        QCOMPARE(controls.loraTargets->text(), QStringLiteral("c_attn"));
        QVERIFY2(controls.loraTargets->toolTip().contains(QStringLiteral("c_fc")),
                 qPrintable(controls.loraTargets->toolTip()));
        // Targets of the user's own survive a change of config.
        controls.loraTargets->setText(QStringLiteral("all-linear"));
        controls.pickConfig(QStringLiteral("bert-base"));
        QCOMPARE(controls.loraTargets->text(), QStringLiteral("all-linear"));
        QCOMPARE(form.configuration().loraTargets, std::vector<std::string>{"all-linear"});
    }

    void refusesWhatItCannotBuild()
    {
        ui::LanguageModelForm form;
        const Controls controls(form);
        controls.architecture->setEditText(QStringLiteral("  "));
        QVERIFY_THROWS_EXCEPTION(io::InputError, form.configuration());
        controls.pickConfig(QStringLiteral("gpt2"));
        controls.loraRank->setValue(4);
        controls.loraTargets->setText(QStringLiteral(" , "));
        QVERIFY_THROWS_EXCEPTION(io::InputError, form.configuration());
    }

    void takesAConfigFile()
    {
        ui::LanguageModelForm form;
        form.openConfig(QStringLiteral("/models/Llama-3-8B/config.json"));
        QCOMPARE(form.architecture(), QStringLiteral("/models/Llama-3-8B/config.json"));
        QCOMPARE(form.configuration().architecture, std::string("/models/Llama-3-8B/config.json"));
    }

    void remembersItsControls()
    {
        {
            ui::LanguageModelForm form;
            const Controls controls(form);
            controls.fillIn(QStringLiteral("qwen2.5-0.5b"), 2048, QStringLiteral("autocast_float16"),
                            QStringLiteral("sgd"), 32, QStringLiteral("q_proj,k_proj"));
            controls.checkpointing->setChecked(true);
            controls.choose(controls.mode, QStringLiteral("inference"));
            controls.generatedTokens->setValue(300);
            form.remember();
        }
        ui::LanguageModelForm again;
        const Controls controls(again);
        QCOMPARE(again.architecture(), QStringLiteral("qwen2.5-0.5b"));
        QCOMPARE(controls.sequenceLength->value(), 2048);
        QCOMPARE(controls.precision->currentData().toString(), QStringLiteral("autocast_float16"));
        QCOMPARE(controls.optimizer->currentData().toString(), QStringLiteral("sgd"));
        QCOMPARE(controls.loraRank->value(), 32);
        QCOMPARE(controls.loraTargets->text(), QStringLiteral("q_proj,k_proj"));
        QVERIFY(controls.checkpointing->isChecked());
        QCOMPARE(controls.mode->currentData().toString(), QStringLiteral("inference"));
        QCOMPARE(controls.generatedTokens->value(), 300);
        // Restored controls are enabled as the restored recipe asks.
        QVERIFY(!controls.optimizer->isEnabled());
        QVERIFY(controls.loraTargets->isEnabled());
    }
};

QTEST_MAIN(TestLanguageModelForm)
#include "test_LanguageModelForm.moc"
