// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/LanguageModelForm.h"

#include "architectures/ArchitectureLibrary.h"
#include "architectures/ParameterCount.h"
#include "io/InputError.h"
#include "ui/widgets/ApplicableControl.h"
#include "ui/widgets/GpuSpreadForm.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <array>

namespace gpumem::ui {

namespace {

// A precision as the form offers it, and the dtype and autocast it stands for.
struct Precision
{
    const char *key;
    const char *label;
    const char *dtype;
    const char *autocast;
};

const std::array<Precision, 5> &precisions()
{
    static const std::array<Precision, 5> all = {{
        {"float32", QT_TRANSLATE_NOOP("LanguageModelForm", "float32"), "float32", ""},
        {"bfloat16", QT_TRANSLATE_NOOP("LanguageModelForm", "bfloat16"), "bfloat16", ""},
        {"float16", QT_TRANSLATE_NOOP("LanguageModelForm", "float16"), "float16", ""},
        {"autocast_bfloat16", QT_TRANSLATE_NOOP("LanguageModelForm", "autocast bfloat16 (float32 weights)"), "float32",
         "bfloat16"},
        {"autocast_float16", QT_TRANSLATE_NOOP("LanguageModelForm", "autocast float16 (float32 weights)"), "float32",
         "float16"},
    }};
    return all;
}

const Precision &precisionOf(const QString &key)
{
    const auto &all = precisions();
    const auto found = std::find_if(all.begin(), all.end(),
                                    [&key](const Precision &precision) { return key == QLatin1String(precision.key); });
    return found == all.end() ? all.front() : *found;
}

// Weights held in half precision: what QLoRA computes its adapters in.
bool isHalfPrecision(const QString &key)
{
    const Precision &precision = precisionOf(key);
    return QLatin1String(precision.dtype) != QLatin1String("float32") && QLatin1String(precision.autocast).isEmpty();
}

} // namespace

LanguageModelForm::LanguageModelForm(QWidget *parent)
    : QWidget(parent)
{
    const std::vector<std::string> names = architectures::architectureNames();
    mArchitecture = namedWidget<QComboBox>(QStringLiteral("architectureBox"),
                                           tr("A shipped config by its name, or the path of a Hugging Face config.json "
                                              "(or of the model's folder holding one); the model is built from it "
                                              "natively, no weights are read"),
                                           this);
    mArchitecture->setEditable(true);
    mArchitecture->setInsertPolicy(QComboBox::NoInsert);
    mArchitecture->addItems(qtTexts(names));
    // A config's path can be long: the field scrolls rather than widening the form.
    mArchitecture->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mArchitecture->setMinimumContentsLength(8);
    const bool hasLlama = std::find(names.begin(), names.end(), "llama-3.2-1b") != names.end();
    mRemembered.bind(mArchitecture->lineEdit(), QStringLiteral("yourModel/languageModel/config"),
                     hasLlama || names.empty() ? QStringLiteral("llama-3.2-1b") : qtText(names.front()));
    auto *browse = namedWidget<QPushButton>(
        QStringLiteral("browseConfigButton"),
        tr("Choose a config.json, e.g. from a model's folder on the Hugging Face Hub"), tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &LanguageModelForm::openConfigDialog);
    connect(mArchitecture, &QComboBox::currentIndexChanged, this, &LanguageModelForm::updateFamily);
    connect(mArchitecture, &QComboBox::activated, this, &LanguageModelForm::updateFamily);
    connect(mArchitecture->lineEdit(), &QLineEdit::editingFinished, this, &LanguageModelForm::updateFamily);

    mSequenceLength = namedWidget<QSpinBox>(QStringLiteral("sequenceLengthBox"),
                                            tr("Tokens per sample; inference: the prompt's"), this);
    mSequenceLength->setRange(1, 1 << 24);
    mSequenceLength->setSuffix(tr(" tokens"));
    mRemembered.bind(mSequenceLength, QStringLiteral("yourModel/languageModel/sequenceLength"), 512);

    mPrecision = namedWidget<QComboBox>(QStringLiteral("precisionBox"),
                                        tr("The weights' dtype; autocast keeps float32 weights and computes in half "
                                           "precision (torch.autocast), with float32 master weights and gradients"),
                                        this);
    for (const Precision &precision : precisions())
        mPrecision->addItem(QCoreApplication::translate("LanguageModelForm", precision.label),
                            QLatin1String(precision.key));
    mRemembered.bind(mPrecision, QStringLiteral("yourModel/languageModel/precision"), QStringLiteral("bfloat16"));
    // Its longest item would widen the whole form past its pane; the popup still shows it whole.
    mPrecision->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mPrecision->setMinimumContentsLength(12);

    mOptimizer = namedWidget<QComboBox>(QStringLiteral("recipeOptimizerBox"),
                                        tr("The optimizer: its state (momentum, Adam's two moments, 8-bit or factored "
                                           "moments) is kept for every trained parameter"),
                                        this);
    for (const auto &name : estimate::optimizerNames())
        mOptimizer->addItem(qtText(name), qtText(name));
    mRemembered.bind(mOptimizer, QStringLiteral("yourModel/languageModel/optimizer"), QStringLiteral("adamw"));

    mLoraRank = namedWidget<QSpinBox>(QStringLiteral("loraRankBox"),
                                      tr("LoRA adapters of this rank on a frozen base (peft's r); 0 trains every "
                                         "weight (a full fine-tune)"),
                                      this);
    mLoraRank->setRange(0, 65536);
    mLoraRank->setSpecialValueText(tr("0 (full fine-tune)"));
    mRemembered.bind(mLoraRank, QStringLiteral("yourModel/languageModel/loraRank"), 0);
    mLoraTargets = namedWidget<QLineEdit>(QStringLiteral("loraTargetsEdit"), QString(), this);
    mLoraTargets->setPlaceholderText(QStringLiteral("q_proj,v_proj"));
    mRemembered.bind(mLoraTargets, QStringLiteral("yourModel/languageModel/loraTargets"), QString());
    mQlora = namedWidget<QCheckBox>(QStringLiteral("qloraBox"),
                                    tr("The frozen base in 4-bit NF4 (bitsandbytes), the adapters computed in the "
                                       "chosen half precision"),
                                    tr("QLoRA (4-bit base)"), this);
    mRemembered.bind(mQlora, QStringLiteral("yourModel/languageModel/qlora"), false);
    mCheckpointing = namedWidget<QCheckBox>(QStringLiteral("checkpointingBox"),
                                            tr("Recompute each layer in backward instead of keeping its activations "
                                               "(transformers' gradient_checkpointing_enable)"),
                                            tr("Gradient checkpointing"), this);
    mRemembered.bind(mCheckpointing, QStringLiteral("yourModel/languageModel/checkpointing"), false);

    mMode = namedWidget<QComboBox>(QStringLiteral("modeBox"),
                                   tr("Training steps, or inference: a forward pass that fills the key/value cache, "
                                      "without gradients"),
                                   this);
    mMode->addItem(tr("training"), QStringLiteral("training"));
    mMode->addItem(tr("inference"), QStringLiteral("inference"));
    mRemembered.bind(mMode, QStringLiteral("yourModel/languageModel/mode"), QStringLiteral("training"));
    mGeneratedTokens = namedWidget<QSpinBox>(
        QStringLiteral("generatedTokensBox"),
        tr("Tokens generated after the prompt: the key/value cache grows to the prompt and these"), this);
    mGeneratedTokens->setRange(0, 1 << 24);
    mRemembered.bind(mGeneratedTokens, QStringLiteral("yourModel/languageModel/generatedTokens"), 128);

    connect(mPrecision, &QComboBox::currentIndexChanged, this, &LanguageModelForm::updateApplicable);
    connect(mMode, &QComboBox::currentIndexChanged, this, &LanguageModelForm::updateApplicable);
    connect(mLoraRank, &QSpinBox::valueChanged, this, &LanguageModelForm::updateApplicable);

    auto *config = new QHBoxLayout;
    config->addWidget(mArchitecture, 1);
    config->addWidget(browse);
    auto *layout = new QFormLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addRow(tr("Config:"), config);
    layout->addRow(tr("Sequence:"), mSequenceLength);
    layout->addRow(tr("Precision:"), mPrecision);
    layout->addRow(tr("Optimizer:"), mOptimizer);
    layout->addRow(tr("LoRA rank:"), mLoraRank);
    layout->addRow(tr("LoRA targets:"), mLoraTargets);
    layout->addRow(QString(), mQlora);
    layout->addRow(QString(), mCheckpointing);
    layout->addRow(tr("Mode:"), mMode);
    layout->addRow(tr("Generated:"), mGeneratedTokens);
    mSpread = new GpuSpreadForm(this);
    layout->addRow(mSpread);

    mRemembered.restore();
    updateFamily();
    updateApplicable();
    installWheelOnlyWhenFocused(this);
}

QString LanguageModelForm::architecture() const
{
    return mArchitecture->currentText().trimmed();
}

void LanguageModelForm::openConfig(const QString &path)
{
    mArchitecture->setEditText(path);
    updateFamily();
}

void LanguageModelForm::openConfigDialog()
{
    const QFileInfo current(architecture());
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a language model's config"),
                                                      current.exists() ? current.absolutePath() : QString(),
                                                      tr("Hugging Face configs (config.json *.json);;All files (*)"));
    if (!path.isEmpty())
        openConfig(path);
}

void LanguageModelForm::updateFamily()
{
    QString proposed;
    QString names;
    try {
        // A shipped config or a file of at most 1 MiB, read as the user picks it: cheap enough for
        // the GUI thread, and the targets' names are then at hand.
        const architectures::ArchitectureConfig config = architectures::resolveArchitecture(coreText(architecture()));
        proposed = qtTexts(architectures::defaultLoraTargets(config.family)).join(QLatin1Char(','));
        names = qtTexts(architectures::loraTargetNames(config)).join(QStringLiteral(", "));
    } catch (const std::exception &) {
        // A name still being typed, or a file that does not read: estimating says why.
    }
    if (!proposed.isEmpty()) {
        const QString targets = mLoraTargets->text().trimmed();
        if (targets.isEmpty() || targets == mProposedTargets)
            mLoraTargets->setText(proposed);
        mProposedTargets = proposed;
        mLoraTargets->setPlaceholderText(proposed);
    }
    const QString own = tr("The linear layers LoRA adapts, separated by commas (peft's target_modules)");
    setOwnToolTip(mLoraTargets, names.isEmpty() ? own
                                                : own + QLatin1Char('\n') +
                                                      tr("This model's: %1, or all-linear for all of them").arg(names));
    updateApplicable();
}

void LanguageModelForm::updateApplicable()
{
    const bool lora = mLoraRank->value() > 0;
    const bool half = isHalfPrecision(mPrecision->currentData().toString());
    const bool training = mMode->currentData().toString() == QStringLiteral("training");
    setApplicable(mLoraTargets, lora,
                  tr("Give a LoRA rank first: rank 0 is a full fine-tune, which trains every weight"));
    setApplicable(mQlora, lora && half,
                  lora ? tr("QLoRA computes in half precision (bnb_4bit_compute_dtype): choose bfloat16 or float16")
                       : tr("QLoRA trains LoRA adapters on a 4-bit base: give a LoRA rank first"));
    setApplicable(mOptimizer, training, tr("Inference keeps no optimizer state"));
    setApplicable(mCheckpointing, training,
                  tr("Checkpointing trades activations kept for backward: inference has none"));
    setApplicable(mGeneratedTokens, !training, tr("Generated tokens are inference's: choose the inference mode"));
}

estimate::EstimateConfiguration LanguageModelForm::configuration() const
{
    estimate::EstimateConfiguration model;
    if (architecture().isEmpty())
        throw io::InputError("name a language model: a shipped config or a config.json");
    model.architecture = coreText(architecture());
    model.sequenceLength = mSequenceLength->value();
    const Precision &precision = precisionOf(mPrecision->currentData().toString());
    model.dtype = precision.dtype;
    model.autocast = precision.autocast;
    model.mode = coreText(mMode->currentData().toString());
    if (model.mode == "training") {
        model.optimizer = coreText(mOptimizer->currentData().toString());
        model.gradientCheckpointing = mCheckpointing->isChecked();
    } else {
        model.generatedTokens = mGeneratedTokens->value();
    }
    if (mLoraRank->value() > 0) {
        model.loraRank = mLoraRank->value();
        model.loraTargets = architectures::parseLoraTargets(coreText(mLoraTargets->text()));
        if (model.loraTargets.empty())
            throw io::InputError(
                "LoRA targets: name the linear layers LoRA adapts (e.g. q_proj,v_proj, or all-linear)");
        model.qlora = mQlora->isChecked() && isHalfPrecision(mPrecision->currentData().toString());
    }
    mSpread->applyTo(model);
    return model;
}

void LanguageModelForm::remember() const
{
    mRemembered.remember();
    mSpread->remember();
}

} // namespace gpumem::ui
