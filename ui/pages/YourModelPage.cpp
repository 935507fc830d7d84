// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/YourModelPage.h"

#include "architectures/ArchitectureLibrary.h"
#include "ui/app/ProgressBridge.h"
#include "ui/charts/EstimateCharts.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/charts/RecipeComparisonChart.h"
#include "ui/charts/SequenceChart.h"
#include "ui/widgets/EstimateForm.h"
#include "ui/widgets/EstimateTables.h"
#include "ui/widgets/LabelledRow.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/ProgressSegment.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"
#include "ui/widgets/WrappedLabelHeight.h"
#include "workflows/EstimateWorkflow.h"
#include "workflows/LanguageModelEstimates.h"

#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace gpumem::ui {

namespace {

constexpr int kElapsedTickMilliseconds = 500;
// The shares of a language model's run: the estimate (with its largest-batch searches), the
// five recipes, then the lengths of the sequence chart, each about as costly per trace.
constexpr double kEstimateShare = 0.3;
constexpr double kRecipesShare = 0.3;

} // namespace

bool isModelFilePath(const QString &path)
{
    return path.endsWith(QStringLiteral(".pt"), Qt::CaseInsensitive) ||
           path.endsWith(QStringLiteral(".pth"), Qt::CaseInsensitive);
}

YourModelPage::YourModelPage(QWidget *parent)
    : QWidget(parent)
    , mBridge(new ProgressBridge(this))
{
    setObjectName(QStringLiteral("yourModelPage"));
    setAcceptDrops(true);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(buildFormPane());
    splitter->addWidget(buildResults());
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    mBridge->showProgressOn(mBusy);
    mElapsedTicker = new QTimer(this);
    mElapsedTicker->setInterval(kElapsedTickMilliseconds);
    connect(mElapsedTicker, &QTimer::timeout, this, &YourModelPage::showElapsed);
    updateRunning();
    clearEstimatePlot(mMemoryChart, tr("Memory against batch size: press Estimate"));
    clearEstimatePlot(mBreakdownChart, tr("Breakdown at the peak: press Estimate"));
    clearEstimatePlot(mTimelineChart, tr("Timeline of one batch: press Estimate"));
    showLanguageModelCharts();
    connect(mForm, &EstimateForm::modelKindChanged, this, &YourModelPage::showLanguageModelTabs);
    showLanguageModelTabs(mForm->isLanguageModel());
    installWheelOnlyWhenFocused(this);
}

// The job's destructor cancels the estimate and waits for it: its LibTorch work
// must not outlive the application.
YourModelPage::~YourModelPage() = default;

QWidget *YourModelPage::buildFormPane()
{
    mForm = new EstimateForm(this);
    mEstimate = namedWidget<QPushButton>(
        QStringLiteral("estimateButton"),
        tr("Trace training steps on the CPU and replay them through the CUDA caching-allocator "
           "model, as gpumem estimate does"),
        tr("&Estimate"), this);
    connect(mEstimate, &QPushButton::clicked, this, &YourModelPage::start);
    mCancel = namedWidget<QPushButton>(QStringLiteral("cancelButton"),
                                       tr("Stop the estimate after the training step traced now"), tr("Cancel"), this);
    connect(mCancel, &QPushButton::clicked, this, &YourModelPage::cancel);
    mBusy = namedWidget<QProgressBar>(QStringLiteral("estimateBusy"), tr("Share of the traces and replays done"), this);
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

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(mEstimate);
    buttons->addWidget(mCancel);
    buttons->addStretch(1);

    auto *pane = new QWidget(this);
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 4, 0);
    layout->addWidget(mForm);
    layout->addLayout(buttons);
    layout->addWidget(mBusy);
    layout->addWidget(mStatus);
    layout->addWidget(mError);
    layout->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("yourModelForm"));
    scroll->setWidget(pane);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    mFormScroller = scroll;
    fitFormPane();
    return scroll;
}

QWidget *YourModelPage::buildResults()
{
    mSummary = new QLabel(this);
    mSummary->setObjectName(QStringLiteral("estimateSummary"));
    mSummary->setWordWrap(true);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    keepWrappedLabelWhole(mSummary);
    mSummary->setText(tr("Open a TorchScript model and describe one sample of its input, or name a language model's "
                         "config.json and its recipe, and press Estimate: training steps run on the CPU, and their "
                         "allocations are replayed through a model of PyTorch's CUDA caching allocator, so no GPU "
                         "is needed."));

    mEstimates = namedWidget<QTableWidget>(
        QStringLiteral("estimateTable"),
        tr("MiB per batch size: peak allocated and reserved (the simulated caching allocator), "
           "the device total with context and workspace (what nvidia-smi would show), and the "
           "breakdown at the allocated peak; overhead is reserved less requested"),
        this);
    prepareEstimateTable(mEstimates);
    // A narrow window scrolls the table sideways: it grows by the scroll bar, not hiding a row under it.
    connect(mEstimates->horizontalScrollBar(), &QScrollBar::rangeChanged, this, &YourModelPage::fitTableHeight);

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
    mSequenceChart = namedWidget<QCustomPlot>(
        QStringLiteral("sequenceChart"),
        tr("A language model's device total against the sequence length, one line per batch size, with the GPU's "
           "capacity. Wheel: zoom, drag: pan, double-click: reset; right-click to save"),
        this);
    prepareEstimatePlot(mSequenceChart, QStringLiteral("memory_by_sequence"));
    mRecipeChart = namedWidget<QCustomPlot>(
        QStringLiteral("recipeChart"),
        tr("The same language model trained five ways at the first batch size: a full fine-tune, with gradient "
           "checkpointing, LoRA, LoRA with checkpointing and QLoRA with checkpointing, each bar stacked by what "
           "the memory holds (activations include the logits and the loss). Right-click to save"),
        this);
    prepareEstimatePlot(mRecipeChart, QStringLiteral("recipe_comparison"));
    mCharts = new QTabWidget(this);
    mCharts->setObjectName(QStringLiteral("estimateCharts"));
    mCharts->setUsesScrollButtons(true);
    mCharts->addTab(mMemoryChart, tr("Memory against batch size"));
    mCharts->addTab(mBreakdownChart, tr("Breakdown at the peak"));
    mCharts->addTab(mTimelineChart, tr("Timeline of one batch"));
    mCharts->addTab(mRecipeChart, tr("Recipes compared"));
    mCharts->addTab(mSequenceChart, tr("Memory against sequence length"));

    // A tab rather than a pane beside the charts: the page then fits a 1024-pixel screen.
    mCharts->addTab(buildProfileBox(), tr("Which GPUs fit"));

    auto *results = new QWidget(this);
    auto *layout = new QVBoxLayout(results);
    layout->setContentsMargins(4, 0, 0, 0);
    layout->addWidget(mSummary);
    layout->addWidget(mEstimates);
    layout->addWidget(mCharts, 1);
    return results;
}

QWidget *YourModelPage::buildProfileBox()
{
    mProfileBatch = namedWidget<QComboBox>(QStringLiteral("profileBatchBox"),
                                           tr("The batch size the table checks on every GPU profile"), this);
    connect(mProfileBatch, &QComboBox::currentIndexChanged, this, &YourModelPage::showProfiles);
    mProfiles =
        namedWidget<QTableWidget>(QStringLiteral("profileTable"),
                                  tr("Every installed GPU profile: the device total (MiB) of the same replay with the "
                                     "profile's own context and workspace, whether it fits the capacity, the MiB to "
                                     "spare (negative: missing), and the largest batch that fits the profile"),
                                  this);
    prepareProfileTable(mProfiles);
    auto *box = new QWidget(this);
    auto *layout = new QVBoxLayout(box);
    layout->addLayout(labelledRow(tr("At batch:"), mProfileBatch, box));
    layout->addWidget(mProfiles, 1);
    return box;
}

void YourModelPage::openModel(const QString &path)
{
    mForm->openModel(path);
}

QString YourModelPage::modelPath() const
{
    return mForm->modelPath();
}

void YourModelPage::openModelDialog()
{
    mForm->openModelDialog();
}

void YourModelPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // Rows grow with the font (View ▸ Large font): the table stays as tall as its rows.
    // Later, once the table itself has taken the new font.
    if (event->type() == QEvent::FontChange) {
        QTimer::singleShot(0, this, &YourModelPage::fitTableHeight);
        QTimer::singleShot(0, this, &YourModelPage::fitFormPane);
    }
}

void YourModelPage::fitFormPane()
{
    // As wide as the form's widest row in the current font, so that it scrolls up and down only
    // (sideways it would hide the fields' right half); a little wider where the window has room.
    const int scrollBar = mFormScroller->verticalScrollBar()->sizeHint().width();
    const int needed = mFormScroller->widget()->minimumSizeHint().width() + scrollBar;
    mFormScroller->setMinimumWidth(std::max(330, needed));
    mFormScroller->setMaximumWidth(std::max(460, needed + fontMetrics().averageCharWidth() * 8));
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
    workflows::EstimateSettings settings;
    try {
        settings = estimateSettings();
    } catch (const std::exception &error) {
        showError(QString::fromStdString(error.what()));
        mStatus->setText(tr("Nothing was estimated."));
        return false;
    }
    mForm->remember();
    showError({});
    mRunning = true;
    mCancelled = false;
    mBusy->setValue(0);
    const QString modelPath = mForm->modelPath();
    ProgressBridge *bridge = mBridge;
    mJob.start([settings, modelPath, bridge](Outcome &outcome, runtime::OperationControl *control) {
        outcome.modelPath = modelPath;
        outcome.timelineBatch = *settings.request.timelineBatch;
        const bool languageModel = !settings.model.architecture.empty();
        try {
            ProgressSegment estimating(bridge, 0.0, languageModel ? kEstimateShare : 1.0);
            auto estimated = std::make_shared<const workflows::EstimateOutcome>(
                workflows::estimateModel(settings, &estimating, control));
            if (languageModel) {
                const architectures::ArchitectureConfig config =
                    architectures::resolveArchitecture(settings.model.architecture);
                outcome.modelPath = qtText(config.name);
                outcome.sequenceLength = settings.model.sequenceLength;
                ProgressSegment recipes(bridge, kEstimateShare, kEstimateShare + kRecipesShare);
                outcome.recipes = std::make_shared<const std::vector<workflows::RecipeEstimate>>(
                    workflows::estimateRecipes(settings, &recipes, control));
                ProgressSegment sequence(bridge, kEstimateShare + kRecipesShare, 1.0);
                outcome.sequence =
                    std::make_shared<const std::vector<workflows::SequencePoint>>(workflows::memoryAgainstSequence(
                        settings, chartedSequenceLengths(config.maxPositions - settings.model.generatedTokens),
                        &sequence, control));
            }
            outcome.estimate = std::move(estimated);
        } catch (const estimate::EstimateCancelled &) {
            outcome.cancelled = true;
        } catch (const std::exception &) {
            throw; // the job makes its message the error line
        } catch (...) {
            outcome.error = QObject::tr("the estimate failed without saying why");
        }
    });
    mElapsed.start();
    mElapsedTicker->start();
    showElapsed();
    updateRunning();
    return true;
}

void YourModelPage::cancel()
{
    if (!isRunning() || mCancelled)
        return;
    mCancelled = true;
    mJob.cancel();
    showElapsed();
    updateRunning();
    Q_EMIT estimateCancelled();
}

void YourModelPage::showElapsed()
{
    mStatus->setText(
        (mCancelled ? tr("Cancelled; stopping after the step traced now (%1 s) …") : tr("Estimating on the CPU … %1 s"))
            .arg(mElapsed.elapsed() / 1000));
}

bool YourModelPage::isRunning() const
{
    // Not mJob.isRunning(): a run that has ended but whose outcome the page has not taken yet still counts.
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
    Outcome outcome = mJob.take();
    const double seconds = static_cast<double>(mElapsed.elapsed()) / 1000.0;
    const bool cancelled = mCancelled || outcome.cancelled;
    mRunning = false;
    mCancelled = false;
    updateRunning();
    if (cancelled) {
        mStatus->setText(
            tr("Cancelled: the estimate stopped after %1 s and its work was discarded.").arg(seconds, 0, 'f', 1));
        return;
    }
    if (!outcome.estimate) {
        mShown = {};
        showResult();
        showError(outcome.error);
        mStatus->setText(tr("The estimate failed after %1 s.").arg(seconds, 0, 'f', 1));
        Q_EMIT estimateFinished(false);
        return;
    }
    mShown = std::move(outcome);
    showResult();
    mStatus->setText(tr("Estimated in %1 s.").arg(seconds, 0, 'f', 1));
    Q_EMIT estimateFinished(true);
}

const estimate::EstimateResult *YourModelPage::result() const
{
    return mShown.estimate ? &mShown.estimate->result : nullptr;
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
    if (!shown) {
        fitTableHeight();
        mSummary->clear();
        clearEstimatePlot(mMemoryChart, tr("No estimate"));
        clearEstimatePlot(mBreakdownChart, tr("No estimate"));
        clearEstimatePlot(mTimelineChart, tr("No estimate"));
        showLanguageModelCharts();
        showProfiles();
        return;
    }
    mSummary->setText(estimateSummary(mShown.modelPath, *shown));
    fitWrappedLabelHeight(mSummary);
    fillEstimateTable(mEstimates, *shown);
    fitTableHeight();
    showMemoryByBatch(mMemoryChart, *shown);
    showBreakdown(mBreakdownChart, *shown);
    showTimeline(mTimelineChart, *shown, mShown.timelineBatch);
    showLanguageModelCharts();
    showProfiles();
}

void YourModelPage::showLanguageModelCharts()
{
    // Short titles: a plot is at least as wide as its title, in a hidden tab too.
    const estimate::EstimateResult *shown = result();
    if (shown && mShown.recipes)
        showRecipeComparison(mRecipeChart, *mShown.recipes, shown->profile);
    else
        clearEstimatePlot(mRecipeChart, shown ? tr("For a language model") : tr("Recipes compared: press Estimate"));
    if (shown && mShown.sequence)
        showMemoryBySequence(mSequenceChart, *mShown.sequence, shown->profile, mShown.sequenceLength);
    else
        clearEstimatePlot(mSequenceChart,
                          shown ? tr("For a language model") : tr("Memory against sequence length: press Estimate"));
}

void YourModelPage::showLanguageModelTabs(bool languageModel)
{
    mCharts->setTabVisible(mCharts->indexOf(mRecipeChart), languageModel);
    mCharts->setTabVisible(mCharts->indexOf(mSequenceChart), languageModel);
}

void YourModelPage::fitTableHeight()
{
    // As tall as its rows (up to a few), so that the charts get the rest of the page.
    constexpr int kRowsShown = 5;
    int height = mEstimates->horizontalHeader()->sizeHint().height() + 2 * mEstimates->frameWidth();
    for (int row = 0; row < kRowsShown; ++row)
        height += row < mEstimates->rowCount() ? mEstimates->rowHeight(row)
                                               : (row == 0 ? mEstimates->verticalHeader()->defaultSectionSize() : 0);
    if (mEstimates->rowCount() > kRowsShown || mEstimates->horizontalScrollBar()->maximum() > 0)
        height += mEstimates->horizontalScrollBar()->sizeHint().height();
    mEstimates->setFixedHeight(height);
}

void YourModelPage::showProfiles()
{
    mProfiles->setRowCount(0);
    const estimate::EstimateResult *shown = result();
    if (!shown || mProfileBatch->currentIndex() < 0)
        return;
    fillProfileTable(mProfiles, *shown, mShown.estimate->profiles, mProfileBatch->currentData().toLongLong());
}

} // namespace gpumem::ui
