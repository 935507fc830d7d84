// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/YourModelPage.h"

#include "estimate/EstimateConfiguration.h"
#include "estimate/GpuProfile.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/MemoryUnits.h"
#include "estimate/ModelTracer.h"
#include "io/InputError.h"
#include "ui/EstimateCharts.h"
#include "ui/LabelledRow.h"
#include "ui/NamedWidget.h"
#include "ui/PaneSplitter.h"
#include "ui/QCustomPlotInclude.h"
#include "ui/QtText.h"
#include "ui/TableCopy.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPalette>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <optional>

namespace gpumem::ui {

namespace {

const char *const modelKey = "yourModel/model";

// As gpumem estimate: no card holds a batch beyond this of anything.
constexpr qint64 kLargestBatch = qint64{1} << 24;
constexpr int kElapsedTickMilliseconds = 500;

enum EstimateColumn
{
    BatchColumn,
    AllocatedColumn,
    ReservedColumn,
    DeviceTotalColumn,
    FitsColumn,
    ParametersColumn,
    GradientsColumn,
    OptimizerColumn,
    ActivationsColumn,
    OverheadColumn,
    EstimateColumnCount
};

// MiB with one decimal, as gpumem estimate prints them.
QString mibText(double mib)
{
    return QString::number(mib, 'f', 1);
}

QString mibText(std::uint64_t bytes)
{
    return mibText(estimate::mibOf(bytes));
}

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

// "3,224,224; 20": one sample's shape per model input, each checked by core.
std::vector<std::vector<std::int64_t>> parseShapes(const QString &text)
{
    std::vector<std::vector<std::int64_t>> shapes;
    for (const QString &part : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const QString shape = part.simplified().remove(QLatin1Char(' '));
        if (!shape.isEmpty())
            shapes.push_back(estimate::parseSampleShape(coreText(shape), "input shape"));
    }
    if (shapes.empty())
        throw io::InputError("give one sample's input shape, e.g. 3,224,224 (the batch is prepended; several inputs "
                             "separated by ';')");
    return shapes;
}

std::vector<std::int64_t> parseBatchSizes(const QString &text)
{
    std::vector<std::int64_t> batches;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString item = part.trimmed();
        bool ok = false;
        const qint64 batch = item.toLongLong(&ok);
        if (!ok || batch < 1 || batch > kLargestBatch)
            throw io::InputError("batch sizes take whole numbers from 1 to " + std::to_string(kLargestBatch) +
                                 " separated by commas (e.g. 8,32,128), not " + io::quoteForMessage(coreText(item)));
        batches.push_back(batch);
    }
    if (batches.empty())
        throw io::InputError("give at least one batch size, e.g. 8,32,128");
    return batches;
}

QTableWidgetItem *cell(const QString &text, bool number = true)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    return item;
}

// Colours a notice through its palette, not a style sheet: a widget with a style sheet keeps
// its font when the application font changes, and View ▸ Large font must reach it.
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

const QColor fitsColour(30, 110, 40);
const QColor failsColour(160, 20, 20);

} // namespace

bool isModelFilePath(const QString &path)
{
    return path.endsWith(QStringLiteral(".pt"), Qt::CaseInsensitive) ||
           path.endsWith(QStringLiteral(".pth"), Qt::CaseInsensitive);
}

struct YourModelPage::Outcome
{
    std::shared_ptr<const estimate::EstimateResult> result; // null on error
    std::vector<estimate::GpuProfile> profiles;             // every installed profile, for the GPU table
    std::int64_t timelineBatch = 0;
    QString modelPath;
    QString error;
};

YourModelPage::YourModelPage(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("yourModelPage"));
    setAcceptDrops(true);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(buildForm());
    splitter->addWidget(buildResults());
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(&mWatcher, &QFutureWatcher<std::shared_ptr<const Outcome>>::finished, this, &YourModelPage::finishRun);
    mElapsedTicker = new QTimer(this);
    mElapsedTicker->setInterval(kElapsedTickMilliseconds);
    connect(mElapsedTicker, &QTimer::timeout, this, [this] {
        mStatus->setText((mCancelled ? tr("Cancelled; waiting for the trace on the CPU to end (%1 s) …")
                                     : tr("Estimating on the CPU … %1 s"))
                             .arg(mElapsed.elapsed() / 1000));
    });
    restoreSettings();
    updateInputKind();
    updateRunning();
    clearEstimatePlot(mMemoryChart, tr("Memory against batch size: press Estimate"));
    clearEstimatePlot(mBreakdownChart, tr("Breakdown at the peak: press Estimate"));
    clearEstimatePlot(mTimelineChart, tr("Timeline of one batch: press Estimate"));
}

YourModelPage::~YourModelPage()
{
    // The worker holds no pointer into the page, but its LibTorch work must not outlive the application.
    mWatcher.waitForFinished();
}

QWidget *YourModelPage::buildForm()
{
    auto *open = new QPushButton(tr("&Open model (.pt)…"), this);
    open->setObjectName(QStringLiteral("openModelButton"));
    open->setToolTip(tr("Open a TorchScript file: torch.jit.trace(model.train(), example).save(\"m.pt\") or "
                        "torch.jit.script(model).save(\"m.pt\"); or drop one on this page"));
    connect(open, &QPushButton::clicked, this, &YourModelPage::openModelDialog);
    mModelName = new QLabel(this);
    mModelName->setObjectName(QStringLiteral("modelName"));
    mModelName->setWordWrap(true);
    mModelName->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *trust = new QLabel(tr("A TorchScript file is a program: estimating runs the model's own code, as "
                                "torch.load would. Estimate only files you trust."),
                             this);
    trust->setObjectName(QStringLiteral("trustWarning"));
    trust->setWordWrap(true);
    showAsNotice(trust, QColor(0xff, 0xf3, 0xcd), QColor(0x6b, 0x4e, 0x00));

    // A text field that starts from an example, shown as its placeholder once cleared.
    const auto exampleField = [this](const QString &name, const QString &toolTip, const QString &example,
                                     const QString &key) {
        auto *edit = namedWidget<QLineEdit>(name, toolTip, this);
        mRemembered.bind(edit, key, example);
        edit->setPlaceholderText(example);
        return edit;
    };
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
    connect(mInputKind, &QComboBox::currentIndexChanged, this, &YourModelPage::updateInputKind);
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

    mEstimate = namedWidget<QPushButton>(
        QStringLiteral("estimateButton"),
        tr("Trace training steps on the CPU and replay them through the CUDA caching-allocator "
           "model, as gpumem estimate does"),
        tr("&Estimate"), this);
    connect(mEstimate, &QPushButton::clicked, this, &YourModelPage::start);
    mCancel = namedWidget<QPushButton>(
        QStringLiteral("cancelButton"),
        tr("Stop waiting: the trace running on the CPU cannot be interrupted, so its result is "
           "discarded when it ends"),
        tr("Cancel"), this);
    connect(mCancel, &QPushButton::clicked, this, &YourModelPage::cancel);
    mBusy = new QProgressBar(this);
    mBusy->setObjectName(QStringLiteral("estimateBusy"));
    mBusy->setRange(0, 0);
    mBusy->setTextVisible(false);
    mBusy->setMaximumHeight(12);
    mStatus = new QLabel(this);
    mStatus->setObjectName(QStringLiteral("estimateStatus"));
    mStatus->setWordWrap(true);
    mError = new QLabel(this);
    mError->setObjectName(QStringLiteral("estimateError"));
    mError->setWordWrap(true);
    mError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    showAsNotice(mError, QColor(0xfd, 0xe2, 0xe2), QColor(0x8a, 0x10, 0x10));
    mError->hide();

    auto *modelBox = new QGroupBox(tr("Your TorchScript model"), this);
    auto *modelLayout = new QVBoxLayout(modelBox);
    modelLayout->addWidget(open);
    modelLayout->addWidget(mModelName);
    modelLayout->addWidget(trust);

    auto *stepBox = new QGroupBox(tr("One training step"), this);
    auto *step = new QFormLayout(stepBox);
    step->addRow(tr("Input shape:"), mShapes);
    step->addRow(tr("Input kind:"), mInputKind);
    step->addRow(tr("Vocabulary:"), mVocabulary);
    step->addRow(tr("Loss:"), mLoss);
    step->addRow(tr("Classes:"), mClasses);
    step->addRow(tr("Optimizer:"), mOptimizer);
    step->addRow(tr("Dtype:"), mDtype);

    auto *gpuBox = new QGroupBox(tr("GPU and batch"), this);
    auto *gpu = new QFormLayout(gpuBox);
    gpu->addRow(tr("GPU profile:"), mGpu);
    gpu->addRow(tr("CUDA context:"), mContext);
    gpu->addRow(tr("Batch sizes:"), mBatchSizes);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(mEstimate);
    buttons->addWidget(mCancel);
    buttons->addStretch(1);

    auto *form = new QWidget(this);
    auto *layout = new QVBoxLayout(form);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->addWidget(modelBox);
    layout->addWidget(stepBox);
    layout->addWidget(gpuBox);
    layout->addLayout(buttons);
    layout->addWidget(mBusy);
    layout->addWidget(mStatus);
    layout->addWidget(mError);
    layout->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("yourModelForm"));
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(330);
    scroll->setMaximumWidth(460);
    return scroll;
}

QWidget *YourModelPage::buildResults()
{
    mSummary = new QLabel(this);
    mSummary->setObjectName(QStringLiteral("estimateSummary"));
    mSummary->setWordWrap(true);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mSummary->setText(tr("Open a TorchScript model, describe one sample of its input and press Estimate: training "
                         "steps run on the CPU, and their allocations are replayed through a model of PyTorch's "
                         "CUDA caching allocator, so no GPU is needed."));

    mEstimates = namedWidget<QTableWidget>(
        QStringLiteral("estimateTable"),
        tr("MiB per batch size: peak allocated and reserved (the simulated caching allocator), "
           "the device total with context and workspace (what nvidia-smi would show), and the "
           "breakdown at the allocated peak; overhead is reserved less requested"),
        this);
    mEstimates->setColumnCount(EstimateColumnCount);
    mEstimates->setHorizontalHeaderLabels({tr("batch"), tr("allocated"), tr("reserved"), tr("device total"), tr("fits"),
                                           tr("parameters"), tr("gradients"), tr("optimizer"), tr("activations"),
                                           tr("overhead")});
    mEstimates->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    mEstimates->verticalHeader()->hide();
    mEstimates->setEditTriggers(QAbstractItemView::NoEditTriggers);
    installTableCopy(mEstimates);

    mMemoryChart =
        namedWidget<QCustomPlot>(QStringLiteral("memoryChart"),
                                 tr("The device total per batch size against the GPU's capacity, and the largest batch "
                                    "that fits. Wheel: zoom, drag: pan, double-click: reset; right-click to save"),
                                 this);
    prepareEstimatePlot(mMemoryChart, QStringLiteral("memory_by_batch"));
    mBreakdownChart = namedWidget<QCustomPlot>(QStringLiteral("breakdownChart"),
                                               tr("What the memory at the peak holds. Right-click to save"), this);
    prepareEstimatePlot(mBreakdownChart, QStringLiteral("memory_breakdown"));
    mTimelineChart =
        namedWidget<QCustomPlot>(QStringLiteral("timelineChart"),
                                 tr("The first batch size's training steps replayed event by event, by category, "
                                    "with the phases marked. Wheel: zoom, drag: pan, double-click: reset"),
                                 this);
    prepareEstimatePlot(mTimelineChart, QStringLiteral("memory_timeline"));
    mCharts = new QTabWidget(this);
    mCharts->setObjectName(QStringLiteral("estimateCharts"));
    mCharts->addTab(mMemoryChart, tr("Memory against batch size"));
    mCharts->addTab(mBreakdownChart, tr("Breakdown at the peak"));
    mCharts->addTab(mTimelineChart, tr("Timeline of one batch"));

    mProfileBatch = namedWidget<QComboBox>(QStringLiteral("profileBatchBox"),
                                           tr("The batch size the table checks on every GPU profile"), this);
    connect(mProfileBatch, &QComboBox::currentIndexChanged, this, &YourModelPage::showProfiles);
    mProfiles =
        namedWidget<QTableWidget>(QStringLiteral("profileTable"),
                                  tr("Every installed GPU profile: the device total (MiB) of the same replay with the "
                                     "profile's own context and workspace, whether it fits the capacity, the MiB to "
                                     "spare (negative: missing), and the largest batch that fits the profile"),
                                  this);
    mProfiles->setColumnCount(5);
    mProfiles->setHorizontalHeaderLabels({tr("GPU"), tr("total"), tr("fits"), tr("spare"), tr("largest\nbatch")});
    mProfiles->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mProfiles->horizontalHeader()->setStretchLastSection(true);
    mProfiles->verticalHeader()->hide();
    mProfiles->setEditTriggers(QAbstractItemView::NoEditTriggers);
    installTableCopy(mProfiles);
    auto *profileBox = new QGroupBox(tr("Which GPUs fit"), this);
    auto *profileLayout = new QVBoxLayout(profileBox);
    profileLayout->addLayout(labelledRow(tr("At batch:"), mProfileBatch, profileBox));
    profileLayout->addWidget(mProfiles, 1);

    auto *lower = paneSplitter(mCharts, 5, profileBox, 2, this);
    profileBox->setMinimumWidth(340);
    lower->setChildrenCollapsible(false);

    auto *results = new QWidget(this);
    auto *layout = new QVBoxLayout(results);
    layout->setContentsMargins(4, 0, 0, 0);
    layout->addWidget(mSummary);
    layout->addWidget(mEstimates);
    layout->addWidget(lower, 1);
    return results;
}

void YourModelPage::restoreSettings()
{
    const QSettings settings;
    const QString model = settings.value(modelKey).toString();
    if (!model.isEmpty())
        openModel(model);
    else
        mModelName->setText(tr("No model opened."));
    mRemembered.restore();
}

void YourModelPage::rememberSettings() const
{
    QSettings settings;
    settings.setValue(modelKey, mModelPath);
    mRemembered.remember();
}

void YourModelPage::updateInputKind()
{
    mVocabulary->setEnabled(mInputKind->currentData().toString() == QStringLiteral("tokens"));
}

void YourModelPage::openModel(const QString &path)
{
    mModelPath = path;
    const QFileInfo file(path);
    mModelName->setText(file.exists() ? tr("<b>%1</b> (%L2 KiB) in %3")
                                            .arg(file.fileName().toHtmlEscaped())
                                            .arg(static_cast<double>(file.size()) / 1024.0, 0, 'f', 0)
                                            .arg(file.absolutePath().toHtmlEscaped())
                                      : tr("<b>%1</b> (not found)").arg(path.toHtmlEscaped()));
    mModelName->setToolTip(file.absoluteFilePath());
}

void YourModelPage::openModelDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open your model"), QFileInfo(mModelPath).absolutePath(),
                                                      tr("TorchScript files (*.pt *.pth);;All files (*)"));
    if (!path.isEmpty())
        openModel(path);
}

void YourModelPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // Rows grow with the font (View ▸ Large font): the table stays as tall as its rows.
    // Later, once the table itself has taken the new font.
    if (event->type() == QEvent::FontChange)
        QTimer::singleShot(0, this, &YourModelPage::fitTableHeight);
}

void YourModelPage::dragEnterEvent(QDragEnterEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile() && isModelFilePath(url.toLocalFile())) {
            event->acceptProposedAction();
            return;
        }
}

void YourModelPage::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile() && isModelFilePath(url.toLocalFile())) {
            openModel(url.toLocalFile());
            event->acceptProposedAction();
            return;
        }
}

bool YourModelPage::start()
{
    if (isRunning())
        return false;
    estimate::EstimateConfiguration configuration;
    estimate::EstimateRequest request;
    try {
        if (mModelPath.isEmpty())
            throw io::InputError("open a TorchScript model (.pt) first");
        configuration.modelPath = coreText(mModelPath);
        configuration.inputShapes = parseShapes(mShapes->text());
        if (mInputKind->currentData().toString() == QStringLiteral("tokens")) {
            configuration.inputKind = estimate::InputKind::Tokens;
            configuration.vocabulary = mVocabulary->value();
        }
        configuration.loss = coreText(mLoss->currentData().toString());
        if (mClasses->value() > 0)
            configuration.classes = mClasses->value();
        configuration.optimizer = coreText(mOptimizer->currentData().toString());
        configuration.dtype = coreText(mDtype->currentData().toString());
        if (mGpu->count() == 0)
            throw io::InputError("no GPU profile is installed (resources/gpus)");
        request.batchSizes = parseBatchSizes(mBatchSizes->text());
        request.maxBatch = true;
        request.timelineBatch = request.batchSizes.front();
    } catch (const std::exception &error) {
        showError(QString::fromStdString(error.what()));
        mStatus->setText(tr("Nothing was estimated."));
        return false;
    }
    rememberSettings();
    showError({});
    mRunning = true;
    mCancelled = false;
    const std::string gpu = coreText(mGpu->currentData().toString());
    const std::optional<double> contextMib =
        mContext->value() > 0.0 ? std::optional<double>(mContext->value()) : std::nullopt;
    const QString modelPath = mModelPath;
    mWatcher.setFuture(QtConcurrent::run([configuration, request, gpu, contextMib, modelPath]() {
        auto outcome = std::make_shared<Outcome>();
        outcome->timelineBatch = *request.timelineBatch;
        outcome->modelPath = modelPath;
        // Nothing may escape the worker: every failure becomes the page's error line.
        try {
            estimate::GpuProfile profile = estimate::findGpuProfile(gpu);
            if (contextMib)
                profile.contextMib = *contextMib;
            for (const auto &name : estimate::gpuProfileNames()) {
                try {
                    // The chosen GPU's row of the table agrees with the estimate above it.
                    outcome->profiles.push_back(name == gpu ? profile : estimate::findGpuProfile(name));
                } catch (const std::exception &) {
                    // A broken profile file stays out of the table; choosing it says why.
                }
            }
            // The table's largest batch per GPU: more replays of the same traces.
            estimate::EstimateRequest withTable = request;
            withTable.maxBatchAlsoFor = outcome->profiles;
            const estimate::ModelTracer tracer(configuration);
            outcome->result = std::make_shared<const estimate::EstimateResult>(
                estimate::MemoryEstimator::estimate(tracer, profile, withTable));
        } catch (const std::exception &error) {
            outcome->result.reset();
            outcome->error = QString::fromStdString(error.what());
        } catch (...) {
            outcome->result.reset();
            outcome->error = QObject::tr("the estimate failed without saying why");
        }
        return std::shared_ptr<const Outcome>(std::move(outcome));
    }));
    mElapsed.start();
    mElapsedTicker->start();
    mStatus->setText(tr("Estimating on the CPU … 0 s"));
    updateRunning();
    return true;
}

void YourModelPage::cancel()
{
    if (!isRunning() || mCancelled)
        return;
    mCancelled = true;
    mStatus->setText(tr("Cancelled; waiting for the trace on the CPU to end (%1 s) …").arg(mElapsed.elapsed() / 1000));
    updateRunning();
    Q_EMIT estimateCancelled();
}

bool YourModelPage::isRunning() const
{
    // Not mWatcher.isRunning(): a worker that has ended but whose result the page has not taken yet still counts.
    return mRunning;
}

void YourModelPage::updateRunning()
{
    const bool running = isRunning();
    mEstimate->setEnabled(!running);
    mCancel->setEnabled(running && !mCancelled);
    mBusy->setVisible(running);
}

void YourModelPage::finishRun()
{
    mElapsedTicker->stop();
    const std::shared_ptr<const Outcome> outcome = mWatcher.result();
    const double seconds = static_cast<double>(mElapsed.elapsed()) / 1000.0;
    const bool cancelled = mCancelled;
    mRunning = false;
    mCancelled = false;
    updateRunning();
    if (cancelled) {
        mStatus->setText(
            tr("Cancelled: the estimate ended after %1 s and its result was discarded.").arg(seconds, 0, 'f', 1));
        return;
    }
    if (!outcome->result) {
        mShown.reset();
        showResult();
        showError(outcome->error);
        mStatus->setText(tr("The estimate failed after %1 s.").arg(seconds, 0, 'f', 1));
        Q_EMIT estimateFinished(false);
        return;
    }
    mShown = outcome;
    showResult();
    mStatus->setText(tr("Estimated in %1 s.").arg(seconds, 0, 'f', 1));
    Q_EMIT estimateFinished(true);
}

const estimate::EstimateResult *YourModelPage::result() const
{
    return mShown ? mShown->result.get() : nullptr;
}

QString YourModelPage::errorText() const
{
    return mError->text();
}

QString YourModelPage::statusText() const
{
    return mStatus->text();
}

void YourModelPage::showError(const QString &message)
{
    mError->setText(message);
    mError->setVisible(!message.isEmpty());
}

void YourModelPage::showResult()
{
    const estimate::EstimateResult *shown = result();
    {
        const QSignalBlocker quiet(mProfileBatch);
        mProfileBatch->clear();
        if (shown)
            for (const auto &estimate : shown->estimates)
                mProfileBatch->addItem(QString::number(estimate.batchSize), static_cast<qlonglong>(estimate.batchSize));
    }
    mEstimates->setRowCount(0);
    fitTableHeight();
    if (!shown) {
        mSummary->clear();
        clearEstimatePlot(mMemoryChart, tr("No estimate"));
        clearEstimatePlot(mBreakdownChart, tr("No estimate"));
        clearEstimatePlot(mTimelineChart, tr("No estimate"));
        showProfiles();
        return;
    }
    const estimate::EstimateResult &result = *shown;
    QStringList traced;
    for (const std::int64_t batch : result.tracedBatches)
        traced << QString::number(batch);
    QString summary =
        tr("<b>%1</b>: %L2 parameters (%3 MiB) · on <b>%4</b> (%L5 MiB; context %6 MiB, workspace %7 MiB)")
            .arg(QFileInfo(mShown->modelPath).fileName().toHtmlEscaped())
            .arg(result.model.parameterCount)
            .arg(mibText(result.model.parameterBytes))
            .arg(qtText(result.profile.name).toHtmlEscaped())
            .arg(result.profile.capacityMib, 0, 'f', 0)
            .arg(mibText(result.profile.contextMib), mibText(result.profile.workspaceMib));
    if (result.maxBatch)
        summary += QStringLiteral("<br>") + tr("Largest batch that fits: <b>%1</b>").arg(*result.maxBatch);
    summary += QStringLiteral("<br>") +
               tr("Traced on the CPU at batch %1%2, replayed through the CUDA caching-allocator model. Memory in MiB.")
                   .arg(traced.join(QStringLiteral(", ")),
                        result.extrapolated ? tr(", extrapolated in the batch") : QString());
    for (const auto &note : result.notes)
        summary += QStringLiteral("<br>") + tr("Note: %1").arg(qtText(note).toHtmlEscaped());
    mSummary->setText(summary);

    mEstimates->setRowCount(static_cast<int>(result.estimates.size()));
    for (int row = 0; row < mEstimates->rowCount(); ++row) {
        const estimate::BatchEstimate &estimate = result.estimates[static_cast<std::size_t>(row)];
        const auto category = [&estimate](estimate::Category which) {
            return mibText(estimate.bytesAtPeak[static_cast<std::size_t>(which)]);
        };
        const bool fits = estimate.fitsOn(result.profile);
        mEstimates->setItem(row, BatchColumn, cell(QString::number(estimate.batchSize)));
        mEstimates->setItem(row, AllocatedColumn, cell(mibText(estimate.peakAllocatedBytes)));
        mEstimates->setItem(row, ReservedColumn, cell(mibText(estimate.peakReservedBytes)));
        mEstimates->setItem(row, DeviceTotalColumn, cell(mibText(estimate.deviceTotalMib())));
        auto *fitsItem = cell(fits ? tr("yes") : tr("no"), false);
        fitsItem->setForeground(fits ? fitsColour : failsColour);
        mEstimates->setItem(row, FitsColumn, fitsItem);
        mEstimates->setItem(row, ParametersColumn, cell(category(estimate::Category::Parameters)));
        mEstimates->setItem(row, GradientsColumn, cell(category(estimate::Category::Gradients)));
        mEstimates->setItem(row, OptimizerColumn, cell(category(estimate::Category::OptimizerState)));
        mEstimates->setItem(row, ActivationsColumn, cell(category(estimate::Category::Activations)));
        mEstimates->setItem(row, OverheadColumn, cell(mibText(estimate.allocatorOverheadBytes())));
        mEstimates->item(row, BatchColumn)
            ->setToolTip(estimate.measuredDirectly ? tr("traced at this batch on the CPU")
                                                   : tr("extrapolated from the small traces"));
    }
    fitTableHeight();
    showMemoryByBatch(mMemoryChart, result);
    showBreakdown(mBreakdownChart, result);
    showTimeline(mTimelineChart, result, mShown->timelineBatch);
    showProfiles();
}

void YourModelPage::fitTableHeight()
{
    // As tall as its rows (up to a few), so that the charts get the rest of the page.
    constexpr int kRowsShown = 5;
    int height = mEstimates->horizontalHeader()->sizeHint().height() + 2 * mEstimates->frameWidth();
    for (int row = 0; row < kRowsShown; ++row)
        height += row < mEstimates->rowCount() ? mEstimates->rowHeight(row)
                                               : (row == 0 ? mEstimates->verticalHeader()->defaultSectionSize() : 0);
    if (mEstimates->rowCount() > kRowsShown)
        height += mEstimates->horizontalScrollBar()->sizeHint().height();
    mEstimates->setFixedHeight(height);
}

void YourModelPage::showProfiles()
{
    mProfiles->setRowCount(0);
    const estimate::EstimateResult *shown = result();
    if (!shown || mProfileBatch->currentIndex() < 0)
        return;
    const std::int64_t batch = mProfileBatch->currentData().toLongLong();
    const auto found =
        std::find_if(shown->estimates.begin(), shown->estimates.end(),
                     [batch](const estimate::BatchEstimate &estimate) { return estimate.batchSize == batch; });
    if (found == shown->estimates.end())
        return;
    const auto &profiles = mShown->profiles;
    mProfiles->setRowCount(static_cast<int>(profiles.size()));
    for (int row = 0; row < mProfiles->rowCount(); ++row) {
        const estimate::GpuProfile &profile = profiles[static_cast<std::size_t>(row)];
        // The replay does not depend on the GPU: only the profile's context and workspace change.
        estimate::BatchEstimate onProfile = *found;
        onProfile.contextMib = profile.contextMib;
        onProfile.workspaceMib = profile.workspaceMib;
        const bool fits = onProfile.fitsOn(profile);
        const double spare = profile.capacityMib - onProfile.deviceTotalMib();
        auto *name = cell(qtText(profile.name), false);
        name->setToolTip(tr("%L1 MiB; context %2 MiB, workspace %3 MiB. %4")
                             .arg(profile.capacityMib, 0, 'f', 0)
                             .arg(mibText(profile.contextMib), mibText(profile.workspaceMib), qtText(profile.source)));
        if (profile.name == shown->profile.name) {
            QFont bold = name->font();
            bold.setBold(true);
            name->setFont(bold);
        }
        auto *answer = cell(fits ? tr("yes") : tr("no"), false);
        answer->setForeground(fits ? fitsColour : failsColour);
        auto *spareItem = cell(QStringLiteral("%L1").arg(spare, 0, 'f', 0));
        spareItem->setForeground(fits ? fitsColour : failsColour);
        mProfiles->setItem(row, 0, name);
        mProfiles->setItem(row, 1, cell(mibText(onProfile.deviceTotalMib())));
        mProfiles->setItem(row, 2, answer);
        mProfiles->setItem(row, 3, spareItem);
        // Searched in the same worker; a result without extrapolating traces has none.
        QString largest = QStringLiteral("—");
        for (const auto &[profileName, largestBatch] : shown->maxBatchByProfile)
            if (profileName == profile.name)
                largest = QStringLiteral("%L1").arg(largestBatch);
        mProfiles->setItem(row, 4, cell(largest));
    }
}

} // namespace gpumem::ui
