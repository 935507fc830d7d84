// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/ComparePage.h"

#include "data/JobNames.h"
#include "models/RegressorRegistry.h"
#include "ui/app/ComparisonReportContent.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/ComparisonCharts.h"
#include "ui/models/MetricsTableModel.h"
#include "ui/models/WorstRowsModel.h"
#include "ui/widgets/CoverageBox.h"
#include "ui/widgets/JobRowPanel.h"
#include "ui/widgets/ModelProgressTable.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/NetworkPresetBox.h"
#include "ui/widgets/PaneSplitter.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"
#include "workflows/CompareWorkflow.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace gpumem::ui {

namespace {

const char *const modelsKey = "compare/models";
const char *const validationKey = "compare/validation";
constexpr int worstRowsPerModel = 25;

} // namespace

ComparePage::ComparePage(WorkbenchState *state, QWidget *parent)
    : QWidget(parent)
    , mState(state)
    , mBridge(new ProgressBridge(this))
{
    setObjectName(QStringLiteral("comparePage"));
    QSettings settings;
    const QStringList chosen = settings.value(modelsKey, qtTexts(models::defaultComparisonModels())).toStringList();
    mModels = namedWidget<QListWidget>(
        QStringLiteral("modelList"),
        tr("The models to compare; every one sees the same splits. The neural network uses the "
           "Model page's values, the others their library defaults."),
        this);
    for (const auto &name : models::regressorNames()) {
        auto *item = new QListWidgetItem(qtText(models::regressorTitle(name)), mModels);
        item->setData(Qt::UserRole, qtText(name));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(chosen.contains(qtText(name)) ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(qtText(name));
    }
    mModels->setMaximumHeight(mModels->sizeHintForRow(0) * (mModels->count() + 1) + 8);
    mPreset = new NetworkPresetBox(this);
    mPreset->setModelPagePreset(mState->presetName());
    connect(mState, &WorkbenchState::hyperparametersChanged, this,
            [this] { mPreset->setModelPagePreset(mState->presetName()); });

    mValidation =
        namedWidget<QComboBox>(QStringLiteral("validationBox"),
                               tr("k-fold: every row is tested once, spread is shown over folds; hold-out: one "
                                  "seeded test share, faster"),
                               this);
    mValidation->addItem(tr("k-fold cross-validation"), QStringLiteral("kfold"));
    mValidation->addItem(tr("hold-out split"), QStringLiteral("holdout"));
    mValidation->setCurrentIndex(mValidation->findData(settings.value(validationKey, QStringLiteral("kfold"))));
    mFolds = namedWidget<QSpinBox>(QStringLiteral("foldsBox"), tr("Number of cross-validation folds (2 to 20)"), this);
    mFolds->setRange(2, 20);
    mRemembered.bind(mFolds, QStringLiteral("compare/folds"), 5);
    mRepeats = namedWidget<QSpinBox>(QStringLiteral("repeatsBox"),
                                     tr("Repeat the folds with new fold assignments and new training seeds (1 to "
                                        "10): the spread over repetitions shows how much a figure depends on luck"),
                                     this);
    mRepeats->setRange(1, 10);
    mRemembered.bind(mRepeats, QStringLiteral("compare/repeats"), 1);
    mTestFraction =
        namedWidget<QDoubleSpinBox>(QStringLiteral("testFractionBox"), tr("Share of rows held out for testing"), this);
    mTestFraction->setRange(0.05, 0.5);
    mTestFraction->setSingleStep(0.05);
    mRemembered.bind(mTestFraction, QStringLiteral("compare/testFraction"), 0.2);
    mSeed =
        namedWidget<QSpinBox>(QStringLiteral("seedBox"),
                              tr("Seed of the splits and of every model: the same seed gives the same result"), this);
    mSeed->setRange(0, 1'000'000'000);
    mRemembered.bind(mSeed, QStringLiteral("compare/seed"), 42);
    mRemembered.restore();
    connect(mValidation, &QComboBox::currentIndexChanged, this, &ComparePage::enableValidationFields);
    enableValidationFields();

    mCalibrate = namedWidget<QCheckBox>(
        QStringLiteral("compareCalibrate"),
        tr("Calibrate each model's upper bound inside every fold's training rows and score it on "
           "the fold's test rows: the memory to request so that this share of jobs fits"),
        tr("Upper bound at coverage"), this);
    mCoverage = new CoverageBox(QStringLiteral("compareCoverage"), this);
    connect(mCalibrate, &QCheckBox::toggled, mCoverage, &QWidget::setEnabled);

    mRun =
        namedWidget<QPushButton>(QStringLiteral("runComparison"),
                                 tr("Fit and score every chosen model in the background"), tr("Run comparison"), this);
    mCancel = namedWidget<QPushButton>(QStringLiteral("cancelComparison"),
                                       tr("Stop the comparison; models whose every fold finished are kept"),
                                       tr("Cancel"), this);
    mOverall = namedWidget<QProgressBar>(QStringLiteral("comparisonProgress"), tr("Share of all fits done"), this);
    mOverall->setFormat(QStringLiteral("%p%"));
    mProgressTable = new ModelProgressTable(mBridge, this);
    mStatus = new QLabel(tr("Choose models and press Run."), this);
    mStatus->setObjectName(QStringLiteral("compareStatus"));
    mStatus->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Network:"), mPreset);
    form->addRow(tr("Validation:"), mValidation);
    form->addRow(tr("Folds:"), mFolds);
    form->addRow(tr("Repetitions:"), mRepeats);
    form->addRow(tr("Test share:"), mTestFraction);
    form->addRow(tr("Seed:"), mSeed);
    auto *coverageRow = new QHBoxLayout;
    coverageRow->addWidget(mCalibrate);
    coverageRow->addWidget(mCoverage, 1);
    form->addRow(coverageRow);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(mRun);
    buttons->addWidget(mCancel);

    auto *controls = new QGroupBox(tr("Run"), this);
    auto *controlLayout = new QVBoxLayout(controls);
    controlLayout->addWidget(new QLabel(tr("Models:"), controls));
    controlLayout->addWidget(mModels);
    controlLayout->addLayout(form);
    controlLayout->addLayout(buttons);
    controlLayout->addWidget(mOverall);
    controlLayout->addWidget(mProgressTable, 1);
    controlLayout->addWidget(mStatus);
    controls->setMinimumWidth(360);
    controls->setMaximumWidth(440);

    buildResults();

    auto *splitter = paneSplitter(controls, 0, mResults, 1, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(mRun, &QPushButton::clicked, this, &ComparePage::start);
    connect(mCancel, &QPushButton::clicked, this, &ComparePage::cancel);
    // Queued: the runner's threads emit these, and only the GUI thread may touch widgets.
    mBridge->deliverEventsTo(mProgressTable, &ModelProgressTable::takeEvents, &ModelProgressTable::takeEvents);
    mBridge->showProgressOn(mOverall);
    connect(mState, &WorkbenchState::comparisonChanged, this, &ComparePage::showResults);
    // Another file: the last run's outcome and progress rows spoke of the previous one.
    connect(mState, &WorkbenchState::tableChanged, this, &ComparePage::forgetLastRun);
    updateButtons();
    installWheelOnlyWhenFocused(this);
}

void ComparePage::enableValidationFields()
{
    const bool folds = mValidation->currentData().toString() == QStringLiteral("kfold");
    mFolds->setEnabled(folds);
    mRepeats->setEnabled(folds);
    mTestFraction->setEnabled(!folds);
}

void ComparePage::forgetLastRun()
{
    if (isRunning())
        return;
    mStatus->setText(tr("Choose models and press Run."));
    mProgressTable->reset({}, 1);
    mOverall->setValue(0);
}

void ComparePage::setSelectedModels(const QStringList &names)
{
    for (int row = 0; row < mModels->count(); ++row) {
        QListWidgetItem *item = mModels->item(row);
        item->setCheckState(names.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
    }
}

QStringList ComparePage::selectedModels() const
{
    QStringList names;
    for (int row = 0; row < mModels->count(); ++row)
        if (mModels->item(row)->checkState() == Qt::Checked)
            names << mModels->item(row)->data(Qt::UserRole).toString();
    return names;
}

void ComparePage::setFolds(int folds)
{
    mValidation->setCurrentIndex(mValidation->findData(QStringLiteral("kfold")));
    mFolds->setValue(folds);
}

bool ComparePage::isRunning() const
{
    return mJob.isRunning();
}

QString ComparePage::statusText() const
{
    return mStatus->text();
}

void ComparePage::rememberSettings() const
{
    QSettings settings;
    settings.setValue(modelsKey, selectedModels());
    settings.setValue(validationKey, mValidation->currentData());
    mRemembered.remember();
}

bool ComparePage::start()
{
    if (isRunning())
        return false;
    workflows::CompareConfiguration configuration;
    workflows::DataSelection selected;
    try {
        configuration = this->configuration();
        if (!mState->table())
            throw std::runtime_error(tr("No data loaded: open a CSV file first.").toStdString());
        selected = mState->selectData();
        if (!selected.dataset->hasTarget())
            throw std::runtime_error(tr("No target column: choose one on the Data page.").toStdString());
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
        return false;
    }
    const evaluation::ExperimentSettings &settings = configuration.experiment;
    const bool kFold = settings.testFraction == 0.0;
    rememberSettings();

    std::vector<std::pair<QString, QString>> rows;
    for (const auto &model : settings.models)
        rows.emplace_back(qtText(model.name), qtText(models::regressorTitle(model.name)));
    mProgressTable->reset(rows, kFold ? settings.folds : 1);
    mOverall->setValue(0);
    QString status = tr("Comparing %1 on %L2 rows…")
                         .arg(selectedModels().join(QStringLiteral(", ")))
                         .arg(selected.dataset->rowCount());
    for (const auto &warning : selected.warnings)
        status += QStringLiteral(" ") + QString::fromStdString(warning);
    mStatus->setText(status);

    mRunningDataset = selected.dataset;
    ProgressBridge *bridge = mBridge;
    const std::string dataName = coreText(QFileInfo(mState->dataPath()).fileName());
    mJob.start([selected, dataName, configuration, bridge](Outcome &outcome, runtime::OperationControl *control) {
        // The workflow sets LibTorch's threads on this thread, the one that computes.
        workflows::CompareResult compared = workflows::compare(selected, dataName, configuration, bridge, control);
        outcome.result = std::make_shared<const evaluation::ExperimentResult>(std::move(compared.experiment));
        outcome.context = std::move(compared.context);
    });
    updateButtons();
    return true;
}

void ComparePage::cancel()
{
    if (mJob.cancel())
        mStatus->setText(tr("Cancelling…"));
}

void ComparePage::finish()
{
    mProgressTable->takeEvents();
    const Outcome outcome = mJob.take();
    updateButtons();
    if (!outcome.result) {
        mStatus->setText(outcome.error);
        mRunningDataset.reset();
        Q_EMIT comparisonFinished(false);
        return;
    }
    const auto &result = *outcome.result;
    if (result.cancelled) {
        // A cancelled run replaces nothing: the comparison on show stays, and the rows say what was stopped.
        mProgressTable->markUnfinishedCancelled();
        mStatus->setText(mState->comparison()
                             ? tr("Cancelled after %1 s; the results on show are the previous comparison's.")
                                   .arg(result.seconds, 0, 'f', 1)
                             : tr("Cancelled after %1 s.").arg(result.seconds, 0, 'f', 1));
        mRunningDataset.reset();
        Q_EMIT comparisonFinished(false);
        return;
    }
    QString status = tr("Finished in %1 s. Best (lowest RMSE): %2.")
                         .arg(result.seconds, 0, 'f', 1)
                         .arg(qtText(result.best.empty() ? "–" : models::regressorTitle(result.best)));
    for (const auto &warning : result.warnings)
        status += QStringLiteral(" ") + QString::fromStdString(warning);
    mStatus->setText(status);
    mOverall->setValue(1000);
    mState->setComparison(outcome.result, mRunningDataset, outcome.context);
    mRunningDataset.reset();
    Q_EMIT comparisonFinished(true);
}

void ComparePage::updateButtons()
{
    const bool running = isRunning();
    mRun->setEnabled(!running);
    mCancel->setEnabled(running);
    mModels->setEnabled(!running);
}

void ComparePage::showResults()
{
    clearCharts();
    const auto result = mState->comparison();
    const auto dataset = mState->comparisonDataset();
    mMetrics->setResult(result && !result->models.empty() ? result : nullptr);
    const auto table = mState->table();
    mWorst->setResult(dataset ? result : nullptr, dataset ? dataset->rowLines() : std::vector<std::int64_t>{},
                      dataset && table ? data::jobNames(*table, dataset->rowLines()) : std::vector<std::string>{},
                      worstRowsPerModel);
    mWorstView->sortByColumn(4, Qt::DescendingOrder);
    fitTables();
    mBoundHint->setVisible(!result || result->models.empty() || !result->calibration);
    showSettingsOfResults();
    showExplanations();
    if (!result || result->models.empty())
        return;
    int index = 0;
    for (const auto *metric : chartedMetrics())
        addChart(metricBarChart(*result, *metric), mMetricGrid, index++, 3,
                 QStringLiteral("chart_%1").arg(metric->key));
    if (result->calibration)
        addChart(boundCurveChart(*result, result->calibration->coverage), mBoundGrid, 0, 1,
                 QStringLiteral("bound_curves"));
    if (!dataset)
        return;
    index = 0;
    for (const auto &model : result->models) {
        if (model.predictions.size() != dataset->target().size())
            continue;
        const QString title = qtText(model.title);
        mJobRow->watch(addChart(predictedVsActualChart(title, dataset->target(), model.predictions), mScatterGrid,
                                index, 2, QStringLiteral("scatter_%1").arg(qtText(model.name)))
                           ->chart(),
                       static_cast<std::size_t>(&model - result->models.data()));
        addChart(residualHistogramChart(title, dataset->target(), model.predictions), mResidualGrid, index, 2,
                 QStringLiteral("residuals_%1").arg(qtText(model.name)));
        ++index;
    }
}

ReportContent ComparePage::reportContent()
{
    return comparisonReportContent(*mState, mChartViews);
}

} // namespace gpumem::ui
