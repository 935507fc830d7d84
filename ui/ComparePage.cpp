#include "ui/ComparePage.h"

#include "evaluation/Ranking.h"
#include "models/RegressorRegistry.h"
#include "runtime/LibraryVersions.h"
#include "runtime/ThreadSettings.h"
#include "ui/ChartExport.h"
#include "ui/ComparisonCharts.h"
#include "ui/ProgressBridge.h"
#include "ui/QtText.h"
#include "ui/TableCopy.h"
#include "ui/WorkbenchState.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace gpumem::ui {

namespace {

const char *const modelsKey = "compare/models";
const char *const foldsKey = "compare/folds";
const char *const validationKey = "compare/validation";
const char *const testFractionKey = "compare/testFraction";
const char *const seedKey = "compare/seed";
constexpr int worstRowsPerModel = 25;

QString significanceMark(double pValue)
{
    if (pValue < 0.01)
        return QStringLiteral("**");
    if (pValue < 0.05)
        return QStringLiteral("*");
    return {};
}

QString metricText(const evaluation::MetricDescription &metric, double value)
{
    return std::isnan(value) ? QStringLiteral("–") : qtText(evaluation::formatMetric(metric, value));
}

QString tableHtml(const QAbstractItemModel *model, int rowLimit, const std::vector<std::vector<bool>> &best = {})
{
    QString html = QStringLiteral("<table><tr>");
    for (int column = 0; column < model->columnCount(); ++column)
        html += QStringLiteral("<th>%1</th>").arg(model->headerData(column, Qt::Horizontal).toString().toHtmlEscaped());
    html += QStringLiteral("</tr>\n");
    for (int row = 0; row < std::min(rowLimit, model->rowCount()); ++row) {
        html += QStringLiteral("<tr>");
        for (int column = 0; column < model->columnCount(); ++column) {
            const bool isBest = static_cast<std::size_t>(row) < best.size() &&
                                static_cast<std::size_t>(column) < best[static_cast<std::size_t>(row)].size() &&
                                best[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)];
            html += QStringLiteral("<td class=\"%1\">%2</td>")
                        .arg(column == 0 ? QStringLiteral("name")
                             : isBest    ? QStringLiteral("best")
                                         : QString(),
                             model->index(row, column).data().toString().toHtmlEscaped());
        }
        html += QStringLiteral("</tr>\n");
    }
    return html + QStringLiteral("</table>\n");
}

} // namespace

ComparePage::ComparePage(WorkbenchState *state, QWidget *parent)
    : QWidget(parent)
    , mState(state)
    , mBridge(new ProgressBridge(this))
    , mModels(new QListWidget(this))
    , mValidation(new QComboBox(this))
    , mFolds(new QSpinBox(this))
    , mTestFraction(new QDoubleSpinBox(this))
    , mSeed(new QSpinBox(this))
    , mRun(new QPushButton(tr("Run comparison"), this))
    , mCancel(new QPushButton(tr("Cancel"), this))
    , mOverall(new QProgressBar(this))
    , mProgressTable(new QTableWidget(this))
    , mStatus(new QLabel(tr("Choose models and press Run."), this))
    , mResults(new QTabWidget(this))
    , mMetricGrid(new QGridLayout)
    , mScatterGrid(new QGridLayout)
    , mResidualGrid(new QGridLayout)
    , mMetrics(new QTableWidget(this))
    , mWorst(new QStandardItemModel(this))
    , mWorstView(new QTableView(this))
{
    setObjectName(QStringLiteral("comparePage"));
    QSettings settings;
    const QStringList chosen = settings.value(modelsKey, qtTexts(models::defaultComparisonModels())).toStringList();
    mModels->setObjectName(QStringLiteral("modelList"));
    mModels->setToolTip(tr("The models to compare; every one sees the same splits. The neural network uses the "
                           "Model page's values, the others their library defaults."));
    for (const auto &name : models::regressorNames()) {
        auto *item = new QListWidgetItem(qtText(models::regressorTitle(name)), mModels);
        item->setData(Qt::UserRole, qtText(name));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(chosen.contains(qtText(name)) ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(qtText(name));
    }
    mModels->setMaximumHeight(mModels->sizeHintForRow(0) * (mModels->count() + 1) + 8);

    mValidation->setObjectName(QStringLiteral("validationBox"));
    mValidation->addItem(tr("k-fold cross-validation"), QStringLiteral("kfold"));
    mValidation->addItem(tr("hold-out split"), QStringLiteral("holdout"));
    mValidation->setToolTip(tr("k-fold: every row is tested once, spread is shown over folds; hold-out: one "
                               "seeded test share, faster"));
    mValidation->setCurrentIndex(mValidation->findData(settings.value(validationKey, QStringLiteral("kfold"))));
    mFolds->setObjectName(QStringLiteral("foldsBox"));
    mFolds->setRange(2, 20);
    mFolds->setValue(settings.value(foldsKey, 5).toInt());
    mFolds->setToolTip(tr("Number of cross-validation folds (2 to 20)"));
    mTestFraction->setObjectName(QStringLiteral("testFractionBox"));
    mTestFraction->setRange(0.05, 0.5);
    mTestFraction->setSingleStep(0.05);
    mTestFraction->setValue(settings.value(testFractionKey, 0.2).toDouble());
    mTestFraction->setToolTip(tr("Share of rows held out for testing"));
    mSeed->setObjectName(QStringLiteral("seedBox"));
    mSeed->setRange(0, 1'000'000'000);
    mSeed->setValue(settings.value(seedKey, 42).toInt());
    mSeed->setToolTip(tr("Seed of the splits and of every model: the same seed gives the same result"));
    const auto validationChanged = [this] {
        const bool folds = mValidation->currentData().toString() == QStringLiteral("kfold");
        mFolds->setEnabled(folds);
        mTestFraction->setEnabled(!folds);
    };
    connect(mValidation, &QComboBox::currentIndexChanged, this, validationChanged);
    validationChanged();

    mRun->setObjectName(QStringLiteral("runComparison"));
    mRun->setToolTip(tr("Fit and score every chosen model in the background"));
    mCancel->setObjectName(QStringLiteral("cancelComparison"));
    mCancel->setToolTip(tr("Stop the comparison; models whose every fold finished are kept"));
    mOverall->setObjectName(QStringLiteral("comparisonProgress"));
    mOverall->setRange(0, 1000);
    mOverall->setFormat(QStringLiteral("%p%"));
    mOverall->setToolTip(tr("Share of all fits done"));
    mProgressTable->setObjectName(QStringLiteral("modelProgress"));
    mProgressTable->setColumnCount(3);
    mProgressTable->setHorizontalHeaderLabels({tr("Model"), tr("Progress"), tr("Status")});
    mProgressTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    mProgressTable->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    mProgressTable->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    mProgressTable->verticalHeader()->hide();
    mProgressTable->setToolTip(tr("Progress of each model over its folds"));
    mStatus->setObjectName(QStringLiteral("compareStatus"));
    mStatus->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Validation:"), mValidation);
    form->addRow(tr("Folds:"), mFolds);
    form->addRow(tr("Test share:"), mTestFraction);
    form->addRow(tr("Seed:"), mSeed);
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

    const auto gridPage = [this](QGridLayout *grid, const QString &name) {
        auto *page = new QWidget;
        page->setLayout(grid);
        auto *scroll = new QScrollArea;
        scroll->setObjectName(name);
        scroll->setWidget(page);
        scroll->setWidgetResizable(true);
        return scroll;
    };
    mMetrics->setObjectName(QStringLiteral("metricsTable"));
    mMetrics->setToolTip(tr("Mean ± standard deviation over folds; the best value per metric is highlighted. * and "
                            "** mark RMSE that differs from the best model's with p < 0.05 and p < 0.01"));
    mMetrics->setEditTriggers(QAbstractItemView::NoEditTriggers);
    installTableCopy(mMetrics);
    auto *metricsPage = new QWidget;
    auto *metricsLayout = new QVBoxLayout(metricsPage);
    auto *chartArea = gridPage(mMetricGrid, QStringLiteral("metricCharts"));
    metricsLayout->addWidget(chartArea, 3);
    metricsLayout->addWidget(mMetrics, 1);
    mResults->addTab(metricsPage, tr("Metrics"));
    mResults->addTab(gridPage(mScatterGrid, QStringLiteral("scatterCharts")), tr("Predicted vs actual"));
    mResults->addTab(gridPage(mResidualGrid, QStringLiteral("residualCharts")), tr("Residuals"));
    mWorstView->setObjectName(QStringLiteral("worstTable"));
    mWorstView->setToolTip(tr("Jobs whose memory was predicted too low (they would run out of memory), largest "
                              "shortfall first; click a header to sort"));
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(mWorst);
    proxy->setSortRole(Qt::UserRole);
    mWorstView->setModel(proxy);
    mWorstView->setSortingEnabled(true);
    mWorstView->horizontalHeader()->setStretchLastSection(true);
    installTableCopy(mWorstView);
    mResults->addTab(mWorstView, tr("Worst under-predictions"));
    mResults->setObjectName(QStringLiteral("compareResults"));

    auto *splitter = new QSplitter(this);
    splitter->addWidget(controls);
    splitter->addWidget(mResults);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(mRun, &QPushButton::clicked, this, &ComparePage::start);
    connect(mCancel, &QPushButton::clicked, this, &ComparePage::cancel);
    // The runner's threads emit these; queued delivery moves them to the GUI thread,
    // the only one that may touch the widgets.
    connect(mBridge, &ProgressBridge::batchesReady, this, &ComparePage::takeBatches, Qt::QueuedConnection);
    connect(mBridge, &ProgressBridge::epochsReady, this, &ComparePage::takeEpochs, Qt::QueuedConnection);
    connect(
        mBridge, &ProgressBridge::fitStarting, this,
        [this](const QString &model, int fold, int folds) {
            auto it = mProgress.find(model);
            if (it == mProgress.end())
                return;
            it->second.folds = folds;
            mProgressTable->item(it->second.row, 2)->setText(tr("fold %1 of %2").arg(fold + 1).arg(folds));
        },
        Qt::QueuedConnection);
    connect(
        mBridge, &ProgressBridge::foldCompleted, this,
        [this](const QString &model) {
            auto it = mProgress.find(model);
            if (it != mProgress.end()) {
                ++it->second.foldsDone;
                setModelFraction(model, 0.0);
            }
        },
        Qt::QueuedConnection);
    connect(
        mBridge, &ProgressBridge::modelCompleted, this,
        [this](const QString &model) {
            auto it = mProgress.find(model);
            if (it != mProgress.end()) {
                it->second.bar->setValue(1000);
                mProgressTable->item(it->second.row, 2)->setText(tr("done"));
            }
        },
        Qt::QueuedConnection);
    connect(
        mBridge, &ProgressBridge::progressAdvanced, this,
        [this](double fraction) { mOverall->setValue(static_cast<int>(1000.0 * fraction)); }, Qt::QueuedConnection);
    connect(&mWatcher, &QFutureWatcher<Outcome>::finished, this, &ComparePage::finish);
    connect(mState, &WorkbenchState::comparisonChanged, this, &ComparePage::showResults);
    updateButtons();
}

ComparePage::~ComparePage()
{
    if (mControl)
        mControl->cancel();
    mWatcher.waitForFinished();
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
    return mWatcher.isRunning();
}

QString ComparePage::statusText() const
{
    return mStatus->text();
}

void ComparePage::rememberSettings() const
{
    QSettings settings;
    settings.setValue(modelsKey, selectedModels());
    settings.setValue(foldsKey, mFolds->value());
    settings.setValue(validationKey, mValidation->currentData());
    settings.setValue(testFractionKey, mTestFraction->value());
    settings.setValue(seedKey, mSeed->value());
}

bool ComparePage::start()
{
    if (isRunning())
        return false;
    evaluation::ExperimentSettings settings;
    std::shared_ptr<const data::Dataset> dataset;
    std::vector<std::string> warnings;
    try {
        const QStringList names = selectedModels();
        if (names.isEmpty())
            throw std::runtime_error(tr("Tick at least one model.").toStdString());
        if (!mState->table())
            throw std::runtime_error(tr("No data loaded: open a CSV file first.").toStdString());
        dataset = mState->buildDataset(warnings);
        if (!dataset->hasTarget())
            throw std::runtime_error(tr("No target column: choose one on the Data page.").toStdString());
        for (const QString &name : names) {
            const std::string registryName = coreText(name);
            settings.models.push_back({registryName, registryName == "bigru_transformer"
                                                         ? mState->hyperparameters()
                                                         : models::regressorHyperparameters(registryName)});
        }
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
        return false;
    }
    const bool kFold = mValidation->currentData().toString() == QStringLiteral("kfold");
    settings.folds = mFolds->value();
    settings.testFraction = kFold ? 0.0 : mTestFraction->value();
    settings.seed = static_cast<std::uint64_t>(mSeed->value());
    settings.compute.seed = settings.seed;
    settings.compute.threads = 1;
    rememberSettings();

    mProgress.clear();
    mProgressTable->setRowCount(static_cast<int>(settings.models.size()));
    for (std::size_t index = 0; index < settings.models.size(); ++index) {
        const QString name = qtText(settings.models[index].name);
        const int row = static_cast<int>(index);
        mProgressTable->setItem(row, 0,
                                new QTableWidgetItem(qtText(models::regressorTitle(settings.models[index].name))));
        auto *bar = new QProgressBar(mProgressTable);
        bar->setRange(0, 1000);
        bar->setValue(0);
        mProgressTable->setCellWidget(row, 1, bar);
        mProgressTable->setItem(row, 2, new QTableWidgetItem(tr("waiting")));
        mProgress[name] = {row, 0, kFold ? settings.folds : 1, bar};
    }
    mProgressTable->resizeColumnToContents(0);
    mOverall->setValue(0);
    QString status =
        tr("Comparing %1 on %L2 rows…").arg(selectedModels().join(QStringLiteral(", "))).arg(dataset->rowCount());
    for (const auto &warning : warnings)
        status += QStringLiteral(" ") + QString::fromStdString(warning);
    mStatus->setText(status);

    mControl = std::make_shared<training::TrainingControl>();
    mRunningDataset = dataset;
    ProgressBridge *bridge = mBridge;
    auto control = mControl;
    mWatcher.setFuture(QtConcurrent::run([dataset, settings, bridge, control]() {
        Outcome outcome;
        try {
            // LibTorch's thread settings belong to the thread that computes: set them here.
            runtime::setComputeThreads(settings.compute.threads);
            outcome.result = std::make_shared<const evaluation::ExperimentResult>(
                evaluation::runExperiment(*dataset, settings, bridge, control.get()));
        } catch (const std::exception &error) {
            outcome.error = QString::fromStdString(error.what());
        }
        return outcome;
    }));
    updateButtons();
    return true;
}

void ComparePage::cancel()
{
    if (mControl && isRunning()) {
        mControl->cancel();
        mStatus->setText(tr("Cancelling…"));
    }
}

void ComparePage::setModelFraction(const QString &model, double withinFold)
{
    auto it = mProgress.find(model);
    if (it == mProgress.end())
        return;
    const ModelProgress &progress = it->second;
    const double fraction = (progress.foldsDone + std::clamp(withinFold, 0.0, 1.0)) / std::max(1, progress.folds);
    progress.bar->setValue(static_cast<int>(1000.0 * std::min(fraction, 1.0)));
}

void ComparePage::takeBatches()
{
    // Only the latest batch of each model matters for its progress bar.
    std::map<QString, training::BatchProgress> latest;
    for (const auto &event : mBridge->takeBatches())
        latest[event.model] = event.progress;
    for (const auto &[model, progress] : latest) {
        const double total = static_cast<double>(progress.epochs) * static_cast<double>(progress.batches);
        const double done = static_cast<double>(progress.epoch - 1) * static_cast<double>(progress.batches) +
                            static_cast<double>(progress.batch);
        setModelFraction(model, total > 0.0 ? done / total : 0.0);
    }
}

void ComparePage::takeEpochs()
{
    std::map<QString, training::EpochProgress> latest;
    for (const auto &event : mBridge->takeEpochs())
        latest[event.model] = event.progress;
    for (const auto &[model, progress] : latest)
        setModelFraction(model, progress.epochs > 0 ? static_cast<double>(progress.epoch) / progress.epochs : 0.0);
}

void ComparePage::finish()
{
    takeBatches();
    takeEpochs();
    const Outcome outcome = mWatcher.result();
    mControl.reset();
    updateButtons();
    if (!outcome.result) {
        mStatus->setText(outcome.error);
        mRunningDataset.reset();
        Q_EMIT comparisonFinished(false);
        return;
    }
    const auto &result = *outcome.result;
    QString status =
        result.cancelled
            ? tr("Cancelled after %1 s; models finished: %2.").arg(result.seconds, 0, 'f', 1).arg(result.models.size())
            : tr("Finished in %1 s. Best (lowest RMSE): %2.")
                  .arg(result.seconds, 0, 'f', 1)
                  .arg(qtText(result.best.empty() ? "–" : models::regressorTitle(result.best)));
    for (const auto &warning : result.warnings)
        status += QStringLiteral(" ") + QString::fromStdString(warning);
    mStatus->setText(status);
    mOverall->setValue(result.cancelled ? mOverall->value() : 1000);
    mState->setComparison(outcome.result, mRunningDataset);
    mRunningDataset.reset();
    Q_EMIT comparisonFinished(!result.cancelled);
}

void ComparePage::updateButtons()
{
    const bool running = isRunning();
    mRun->setEnabled(!running);
    mCancel->setEnabled(running);
    mModels->setEnabled(!running);
}

void ComparePage::clearCharts()
{
    for (QChartView *view : mChartViews)
        delete view;
    mChartViews.clear();
}

QChartView *ComparePage::addChart(QChart *chart, QGridLayout *grid, int index, int columns, const QString &name)
{
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(330, 280);
    view->setObjectName(name);
    view->setToolTip(tr("Right-click to save this chart as PNG or SVG"));
    installChartExport(view, name);
    grid->addWidget(view, index / columns, index % columns);
    mChartViews.push_back(view);
    return view;
}

void ComparePage::showResults()
{
    clearCharts();
    mMetrics->clear();
    mMetrics->setRowCount(0);
    mWorst->clear();
    const auto result = mState->comparison();
    const auto dataset = mState->comparisonDataset();
    if (!result || result->models.empty())
        return;
    int index = 0;
    for (const auto *metric : chartedMetrics())
        addChart(metricBarChart(*result, *metric), mMetricGrid, index++, 3,
                 QStringLiteral("chart_%1").arg(metric->key));
    fillMetricsTable(*result);
    if (!dataset)
        return;
    index = 0;
    for (const auto &model : result->models) {
        if (model.predictions.size() != dataset->target().size())
            continue;
        const QString title = qtText(model.title);
        addChart(predictedVsActualChart(title, dataset->target(), model.predictions), mScatterGrid, index, 2,
                 QStringLiteral("scatter_%1").arg(qtText(model.name)));
        addChart(residualHistogramChart(title, dataset->target(), model.predictions), mResidualGrid, index, 2,
                 QStringLiteral("residuals_%1").arg(qtText(model.name)));
        ++index;
    }
    fillWorstTable(*result, *dataset);
}

void ComparePage::fillMetricsTable(const evaluation::ExperimentResult &result)
{
    const auto &metrics = evaluation::metricDescriptions();
    QStringList headers{tr("Model")};
    for (const auto &metric : metrics)
        headers << metricHeading(metric).replace(QStringLiteral("  "), QStringLiteral("\n"));
    headers << tr("Train time (s)") << tr("p vs best (RMSE)");
    mMetrics->setColumnCount(headers.size());
    mMetrics->setHorizontalHeaderLabels(headers);
    mMetrics->setRowCount(static_cast<int>(result.models.size()));
    std::map<std::string, double> pValues;
    for (const auto &test : result.significance)
        if (test.reported) // the t-test over few folds, Wilcoxon otherwise (see docs/comparison-report.md)
            pValues[test.model] = test.pValue;
    for (std::size_t row = 0; row < result.models.size(); ++row) {
        const auto &model = result.models[row];
        QString name = qtText(model.title);
        if (model.name == result.best)
            name += tr(" (best)");
        else if (pValues.count(model.name))
            name += significanceMark(pValues[model.name]);
        mMetrics->setItem(static_cast<int>(row), 0, new QTableWidgetItem(name));
        for (std::size_t column = 0; column < metrics.size(); ++column) {
            const auto &metric = metrics[column];
            QString text = metricText(metric, model.mean.*metric.member);
            if (model.folds.size() > 1)
                text += QStringLiteral(" ± ") + metricText(metric, model.standardDeviation.*metric.member);
            auto *item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (evaluation::isBestModel(result, model, metric)) {
                item->setBackground(QColor(210, 240, 210));
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
                item->setToolTip(tr("Best %1").arg(QString::fromUtf8(metric.title)));
            }
            mMetrics->setItem(static_cast<int>(row), static_cast<int>(column) + 1, item);
        }
        auto *time = new QTableWidgetItem(QString::number(model.trainSeconds, 'f', 2));
        time->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        mMetrics->setItem(static_cast<int>(row), static_cast<int>(metrics.size()) + 1, time);
        const auto p = pValues.find(model.name);
        auto *pItem =
            new QTableWidgetItem(p == pValues.end() ? QStringLiteral("–")
                                                    : QString::number(p->second, 'g', 3) + significanceMark(p->second));
        pItem->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        mMetrics->setItem(static_cast<int>(row), static_cast<int>(metrics.size()) + 2, pItem);
    }
    mMetrics->resizeColumnsToContents();
    mMetrics->horizontalHeader()->setMinimumSectionSize(80);
}

void ComparePage::fillWorstTable(const evaluation::ExperimentResult &result, const data::Dataset &dataset)
{
    mWorst->setHorizontalHeaderLabels(
        {tr("Model"), tr("File line"), tr("Actual (MiB)"), tr("Predicted (MiB)"), tr("Shortfall (MiB)")});
    const auto numberItem = [](double value) {
        auto *item = new QStandardItem(QString::number(value, 'f', 0));
        item->setData(value, Qt::UserRole);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    for (const auto &under : evaluation::worstUnderPredictions(result, worstRowsPerModel)) {
        const QString title = qtText(result.models[under.model].title);
        auto *name = new QStandardItem(title);
        name->setData(title, Qt::UserRole);
        const auto line = static_cast<double>(dataset.rowLines()[static_cast<std::size_t>(under.row)]);
        mWorst->appendRow({name, numberItem(line), numberItem(under.actual), numberItem(under.predicted),
                           numberItem(under.shortfall())});
    }
    mWorstView->sortByColumn(4, Qt::DescendingOrder);
    mWorstView->resizeColumnsToContents();
}

ReportContent ComparePage::reportContent()
{
    ReportContent content;
    content.title = tr("GPU memory model comparison");
    content.created = QDateTime::currentDateTime();
    const auto result = mState->comparison();
    const auto dataset = mState->comparisonDataset();
    if (!result)
        return content;
    const auto request = mState->roleRequest();
    QStringList features;
    for (const auto &feature : request.features)
        features << qtText(feature);
    content.datasetHtml =
        tr("<p>File: %1<br>Rows used: %2<br>Target: %3<br>Features: %4<br>Sequence column: %5</p>\n")
            .arg(mState->dataPath().toHtmlEscaped())
            .arg(dataset ? static_cast<qlonglong>(dataset->rowCount()) : 0)
            .arg(qtText(request.target).toHtmlEscaped(), features.join(QStringLiteral(", ")).toHtmlEscaped(),
                 request.sequenceColumn.empty() ? tr("none") : qtText(request.sequenceColumn).toHtmlEscaped());
    QStringList modelTitles;
    for (const auto &model : result->models)
        modelTitles << qtText(model.title);
    content.settingsHtml = tr("<p>Splits: %1 (%2)<br>Models: %3<br>Run time: %4 s%5</p>\n")
                               .arg(result->splits.size())
                               .arg(result->splits.size() > 1 ? tr("k-fold cross-validation") : tr("hold-out"))
                               .arg(modelTitles.join(QStringLiteral(", ")).toHtmlEscaped())
                               .arg(result->seconds, 0, 'f', 1)
                               .arg(result->cancelled ? tr(" (cancelled)") : QString());

    // The metrics table with the highlighted cells, as on screen.
    std::vector<std::vector<bool>> best(static_cast<std::size_t>(mMetrics->rowCount()));
    for (int row = 0; row < mMetrics->rowCount(); ++row)
        for (int column = 0; column < mMetrics->columnCount(); ++column)
            best[static_cast<std::size_t>(row)].push_back(mMetrics->item(row, column) &&
                                                          mMetrics->item(row, column)->font().bold());
    content.metricsHtml = tableHtml(mMetrics->model(), mMetrics->rowCount(), best) +
                          tr("<p>* p &lt; 0.05, ** p &lt; 0.01: RMSE differs from the best model's (paired test over "
                             "folds).</p>\n");
    content.worstHtml = tableHtml(mWorstView->model(), 20);

    const models::Hyperparameters *hyperparameters = &mState->hyperparameters();
    for (const auto &model : result->models)
        if (model.name == "bigru_transformer")
            hyperparameters = &model.hyperparameters;
    QString values = QStringLiteral("<table>");
    for (const auto &spec : hyperparameters->specs())
        values += QStringLiteral("<tr><td class=\"name\">%1</td><td>%2</td></tr>")
                      .arg(qtText(spec.name).toHtmlEscaped(), qtText(hyperparameters->text(spec.name)).toHtmlEscaped());
    content.hyperparametersHtml = values + QStringLiteral("</table>\n");
    QString versions = QStringLiteral("<table>");
    for (const auto &[name, version] : runtime::libraryVersions().entries())
        versions += QStringLiteral("<tr><td class=\"name\">%1</td><td class=\"name\">%2</td></tr>")
                        .arg(qtText(name).toHtmlEscaped(), qtText(version).toHtmlEscaped());
    content.versionsHtml = versions + QStringLiteral("</table>\n");
    for (QChartView *view : mChartViews)
        content.figures.push_back({view->chart()->title(), widgetImage(view, QSize(800, 500))});
    return content;
}

} // namespace gpumem::ui
