// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/EstimateForm.h"

#include "io/InputError.h"
#include "ui/widgets/ApplicableControl.h"
#include "ui/widgets/LanguageModelForm.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <initializer_list>

namespace gpumem::ui {

namespace {

const char *const modelKey = "yourModel/model";
const QString torchScriptKind = QStringLiteral("torchscript");
const QString languageModelKind = QStringLiteral("config");

QComboBox *namedCombo(const QString &objectName, const std::vector<std::string> &names, QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(objectName);
    for (const auto &name : names)
        combo->addItem(qtText(name), qtText(name));
    return combo;
}

// The installed profiles by their names and capacities; the data is the name --gpu takes.
QComboBox *profileCombo(QWidget *parent)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(QStringLiteral("gpuBox"));
    for (const auto &name : estimate::gpuProfileNames()) {
        QString shown = qtText(name);
        try {
            const estimate::GpuProfile profile = estimate::findGpuProfile(name);
            shown = QObject::tr("%1 (%L2 MiB)").arg(qtText(profile.name)).arg(profile.capacityMib, 0, 'f', 0);
        } catch (const std::exception &) {
            // A profile file that does not read is still listed; estimating with it shows why.
        }
        combo->addItem(shown, qtText(name));
    }
    return combo;
}

} // namespace

void showAsNotice(QLabel *label, const QColor &background, const QColor &text)
{
    QPalette palette = label->palette();
    palette.setColor(QPalette::Window, background);
    palette.setColor(QPalette::WindowText, text);
    label->setPalette(palette);
    label->setAutoFillBackground(true);
    label->setFrameShape(QFrame::Box);
    label->setMargin(4);
}

EstimateForm::EstimateForm(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildModelBox());
    layout->addWidget(buildLanguageModelBox());
    layout->addWidget(buildStepBox());
    layout->addWidget(buildGpuBox());
    const QString model = QSettings().value(modelKey).toString();
    if (!model.isEmpty())
        openModel(model);
    else
        mModelName->setText(tr("No model opened."));
    mRemembered.restore();
    updateApplicable();
    installWheelOnlyWhenFocused(this);
    // In a large font a field goes under its label rather than widen the form past its pane.
    for (QFormLayout *form : findChildren<QFormLayout *>())
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
}

QWidget *EstimateForm::buildModelBox()
{
    mKind = namedWidget<QComboBox>(QStringLiteral("modelKindBox"),
                                   tr("A TorchScript file runs its own training step on the CPU; a language model is "
                                      "built natively from its Hugging Face config.json, with a recipe"),
                                   this);
    mKind->addItem(tr("TorchScript file"), torchScriptKind);
    mKind->addItem(tr("Language model (config.json)"), languageModelKind);
    // Long items would widen the form past its pane; the popup still shows them whole.
    mKind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mKind->setMinimumContentsLength(12);
    mRemembered.bind(mKind, QStringLiteral("yourModel/kind"), torchScriptKind);
    connect(mKind, &QComboBox::currentIndexChanged, this, [this] {
        updateApplicable();
        Q_EMIT modelKindChanged(isLanguageModel());
    });
    mOpen = new QPushButton(tr("&Open model (.pt)…"), this);
    mOpen->setObjectName(QStringLiteral("openModelButton"));
    mOpen->setToolTip(tr("Open a TorchScript file: torch.jit.trace(model.train(), example).save(\"m.pt\") or "
                         "torch.jit.script(model).save(\"m.pt\"); or drop one on this page"));
    connect(mOpen, &QPushButton::clicked, this, &EstimateForm::openModelDialog);
    mModelName = new QLabel(this);
    mModelName->setObjectName(QStringLiteral("modelName"));
    mModelName->setWordWrap(true);
    mModelName->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mTrust = new QLabel(tr("A TorchScript file is a program: estimating runs the model's own code, as "
                           "torch.load would. Estimate only files you trust."),
                        this);
    mTrust->setObjectName(QStringLiteral("trustWarning"));
    mTrust->setWordWrap(true);
    showAsNotice(mTrust, QColor(0xff, 0xf3, 0xcd), QColor(0x6b, 0x4e, 0x00));

    auto *box = new QGroupBox(tr("Your model"), this);
    auto *layout = new QVBoxLayout(box);
    auto *kind = new QFormLayout;
    kind->setContentsMargins(0, 0, 0, 0);
    kind->addRow(tr("Model:"), mKind);
    layout->addLayout(kind);
    layout->addWidget(mOpen);
    layout->addWidget(mModelName);
    layout->addWidget(mTrust);
    return box;
}

QWidget *EstimateForm::buildLanguageModelBox()
{
    mLanguageModel = new LanguageModelForm(this);
    mLanguageModel->setObjectName(QStringLiteral("languageModelForm"));
    auto *box = new QGroupBox(tr("Language model and recipe"), this);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(mLanguageModel);
    return box;
}

QLineEdit *EstimateForm::exampleField(const QString &name, const QString &toolTip, const QString &example,
                                      const QString &key)
{
    // Starts from an example, shown as its placeholder once cleared.
    auto *edit = namedWidget<QLineEdit>(name, toolTip, this);
    mRemembered.bind(edit, key, example);
    edit->setPlaceholderText(example);
    return edit;
}

QWidget *EstimateForm::buildStepBox()
{
    mShapes = exampleField(QStringLiteral("inputShapes"),
                           tr("One sample's shape; the batch is prepended. A model with several inputs: one shape "
                              "per input, separated by ';' (e.g. 3,224,224; 10)"),
                           QStringLiteral("3,224,224"), QStringLiteral("yourModel/inputShapes"));
    mInputKind =
        namedWidget<QComboBox>(QStringLiteral("inputKindBox"),
                               tr("Random floats of the training dtype, or int64 token ids for language models"), this);
    mRemembered.bind(mInputKind, QStringLiteral("yourModel/inputKind"), QStringLiteral("float"));
    mInputKind->addItem(tr("float (random values)"), QStringLiteral("float"));
    mInputKind->addItem(tr("tokens (ids below the vocabulary)"), QStringLiteral("tokens"));
    mInputKind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    mInputKind->setMinimumContentsLength(12);
    connect(mInputKind, &QComboBox::currentIndexChanged, this, &EstimateForm::updateApplicable);
    mVocabulary = namedWidget<QSpinBox>(QStringLiteral("vocabularyBox"),
                                        tr("Tokens: the ids are drawn from 0 to this number less one"), this);
    mRemembered.bind(mVocabulary, QStringLiteral("yourModel/vocabulary"), 32000);
    mVocabulary->setRange(1, 1 << 30);
    mVocabulary->setValue(32000);
    mLoss = namedCombo(QStringLiteral("lossBox"), estimate::lossNames(), this);
    mRemembered.bind(mLoss, QStringLiteral("yourModel/loss"), QStringLiteral("cross_entropy"));
    mLoss->setToolTip(tr("cross_entropy against random class targets, mse against random values, or the sum of "
                         "the output"));
    mClasses =
        namedWidget<QSpinBox>(QStringLiteral("classesBox"),
                              tr("cross_entropy: the number of target classes (0: the output's last dimension)"), this);
    mRemembered.bind(mClasses, QStringLiteral("yourModel/classes"), 0);
    mClasses->setRange(0, 1 << 30);
    mClasses->setSpecialValueText(tr("the output's last dimension"));
    mOptimizer = namedCombo(QStringLiteral("optimizerBox"), estimate::optimizerNames(), this);
    mRemembered.bind(mOptimizer, QStringLiteral("yourModel/optimizer"), QStringLiteral("adam"));
    mOptimizer->setToolTip(tr("The optimizer of the traced step: its state (momentum, Adam's moments) is part of the "
                              "memory"));
    mDtype = namedCombo(QStringLiteral("dtypeBox"), estimate::dtypeNames(), this);
    mRemembered.bind(mDtype, QStringLiteral("yourModel/dtype"), QStringLiteral("float32"));
    mDtype->setToolTip(tr("The model and its float inputs are converted to this dtype"));
    mAttention = namedCombo(QStringLiteral("attentionBox"), estimate::attentionNames(), this);
    mRemembered.bind(mAttention, QStringLiteral("yourModel/attention"), QStringLiteral("efficient"));
    mAttention->setToolTip(tr("efficient: attention as PyTorch 2's fused kernels compute it on a GPU "
                              "(nn.MultiheadAttention, F.scaled_dot_product_attention), without the L×L scores "
                              "and probabilities; math: as the model's own operators, for attention written out "
                              "by hand"));

    auto *box = new QGroupBox(tr("One training step (TorchScript)"), this);
    auto *step = new QFormLayout(box);
    step->addRow(tr("Input shape:"), mShapes);
    step->addRow(tr("Input kind:"), mInputKind);
    step->addRow(tr("Vocabulary:"), mVocabulary);
    step->addRow(tr("Loss:"), mLoss);
    step->addRow(tr("Classes:"), mClasses);
    step->addRow(tr("Optimizer:"), mOptimizer);
    step->addRow(tr("Dtype:"), mDtype);
    step->addRow(tr("Attention:"), mAttention);
    return box;
}

QWidget *EstimateForm::buildGpuBox()
{
    mGpu = profileCombo(this);
    mRemembered.bind(mGpu, QStringLiteral("yourModel/gpu"), QStringLiteral("a100-80"));
    mGpu->setToolTip(tr("The GPU profile (resources/gpus): its capacity, and the CUDA context and library "
                        "workspace added to the tensors"));
    mContext = namedWidget<QDoubleSpinBox>(
        QStringLiteral("contextBox"),
        tr("The CUDA context your driver takes on this GPU, e.g. nvidia-smi's reading for a process "
           "that has only initialised CUDA; it replaces the profile's (as gpumem estimate "
           "--context-mib does). The profile's when 0"),
        this);
    mRemembered.bind(mContext, QStringLiteral("yourModel/contextMib"), 0.0);
    mContext->setRange(0.0, 65536.0);
    mContext->setDecimals(0);
    mContext->setSuffix(tr(" MiB"));
    mContext->setSpecialValueText(tr("the profile's"));
    mBatchSizes = exampleField(QStringLiteral("batchSizes"),
                               tr("The batch sizes to estimate, separated by commas; the first one's timeline is "
                                  "shown. The largest batch that fits the GPU is searched too"),
                               QStringLiteral("8,32,128"), QStringLiteral("yourModel/batchSizes"));

    auto *box = new QGroupBox(tr("GPU and batch"), this);
    auto *gpu = new QFormLayout(box);
    gpu->addRow(tr("GPU profile:"), mGpu);
    gpu->addRow(tr("CUDA context:"), mContext);
    gpu->addRow(tr("Batch sizes:"), mBatchSizes);
    return box;
}

bool EstimateForm::isLanguageModel() const
{
    return mKind->currentData().toString() == languageModelKind;
}

void EstimateForm::setLanguageModel(bool languageModel)
{
    mKind->setCurrentIndex(mKind->findData(languageModel ? languageModelKind : torchScriptKind));
}

void EstimateForm::updateApplicable()
{
    const bool torchScript = !isLanguageModel();
    const QString forFile = tr("For a TorchScript file only: a language model's config gives its input, loss and "
                               "attention, and its recipe above gives the optimizer and precision");
    for (QWidget *control : std::initializer_list<QWidget *>{mOpen, mModelName, mShapes, mInputKind, mLoss, mClasses,
                                                             mOptimizer, mDtype, mAttention})
        setApplicable(control, torchScript, forFile);
    // A config holds numbers only and nothing of it runs: the warning is the file's alone.
    mTrust->setVisible(torchScript);
    const bool tokens = mInputKind->currentData().toString() == QStringLiteral("tokens");
    setApplicable(mVocabulary, torchScript && tokens,
                  torchScript ? tr("For token inputs: choose the input kind tokens") : forFile);
    setApplicable(mLanguageModel, !torchScript,
                  tr("For a language model: choose Language model (config.json) as the model"));
}

void EstimateForm::openModel(const QString &path)
{
    setLanguageModel(false);
    mModelPath = path;
    const QFileInfo file(path);
    mModelName->setText(file.exists() ? tr("<b>%1</b> (%L2 KiB) in %3")
                                            .arg(file.fileName().toHtmlEscaped())
                                            .arg(static_cast<double>(file.size()) / 1024.0, 0, 'f', 0)
                                            .arg(file.absolutePath().toHtmlEscaped())
                                      : tr("<b>%1</b> (not found)").arg(path.toHtmlEscaped()));
    setOwnToolTip(mModelName, file.absoluteFilePath());
}

void EstimateForm::openModelDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open your model"), QFileInfo(mModelPath).absolutePath(),
                                                      tr("TorchScript files (*.pt *.pth);;All files (*)"));
    if (!path.isEmpty())
        openModel(path);
}

estimate::EstimateConfiguration EstimateForm::torchScriptModel() const
{
    estimate::EstimateConfiguration model;
    if (mModelPath.isEmpty())
        throw io::InputError("open a TorchScript model (.pt) first");
    model.modelPath = coreText(mModelPath);
    model.inputShapes = estimate::parseSampleShapes(coreText(mShapes->text()), "input shape");
    if (mInputKind->currentData().toString() == QStringLiteral("tokens")) {
        model.inputKind = estimate::InputKind::Tokens;
        model.vocabulary = mVocabulary->value();
    }
    model.loss = coreText(mLoss->currentData().toString());
    if (mClasses->value() > 0)
        model.classes = mClasses->value();
    model.optimizer = coreText(mOptimizer->currentData().toString());
    model.dtype = coreText(mDtype->currentData().toString());
    model.attention = coreText(mAttention->currentData().toString());
    return model;
}

workflows::EstimateSettings EstimateForm::settings() const
{
    workflows::EstimateSettings settings;
    settings.model = isLanguageModel() ? mLanguageModel->configuration() : torchScriptModel();
    if (mGpu->count() == 0)
        throw io::InputError("no GPU profile is installed (resources/gpus)");
    settings.gpu = coreText(mGpu->currentData().toString());
    if (mContext->value() > 0.0)
        settings.contextMib = mContext->value();
    settings.request.batchSizes = estimate::parseBatchSizes(coreText(mBatchSizes->text()), "batch sizes");
    settings.request.maxBatch = true;
    settings.request.timelineBatch = settings.request.batchSizes.front();
    settings.everyProfile = true;
    return settings;
}

void EstimateForm::remember() const
{
    QSettings().setValue(modelKey, mModelPath);
    mRemembered.remember();
    mLanguageModel->remember();
}

} // namespace gpumem::ui
