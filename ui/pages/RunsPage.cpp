// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/RunsPage.h"

#include "calibration/CalibrationJson.h"

#include "io/InputError.h"
#include "prediction/Predictor.h"
#include "ui/app/ProgressBridge.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/ParallelCoordinatesPlot.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/charts/RunCurvesChart.h"
#include "ui/charts/RunRelationChart.h"
#include "ui/models/RunsTableModel.h"
#include "ui/pages/SweepDialog.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/PaneSplitter.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"
#include "workflows/SweepWorkflow.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>

namespace gpumem::ui {

namespace {

// Trains each trial with the bridge as its observer and hands every finished run
// to deliver, on the sweep's thread.
class BridgedSweepObserver : public workflows::SweepObserver
{
  public:
    BridgedSweepObserver(ProgressBridge *bridge, std::function<void(workflows::TrainResult &)> deliver)
        : mBridge(bridge)
        , mDeliver(std::move(deliver))
    {
    }

    training::TrainingObserver *trialStarting(const runs::SweepTrial & /*trial*/) override { return mBridge; }
    void trialFinished(const runs::SweepTrial & /*trial*/, workflows::TrainResult &run) override { mDeliver(run); }

  private:
    ProgressBridge *mBridge;
    std::function<void(workflows::TrainResult &)> mDeliver;
};

} // namespace

QColor runColour(std::size_t index)
{
    static const QColor colours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                     QColor(0xff, 0x7f, 0x0e), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                     QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
                                     QColor(0x17, 0xbe, 0xcf)};
    return colours[index % (sizeof colours / sizeof colours[0])];
}

RunsPage::RunsPage(WorkbenchState *state, QWidget *parent)
    : QWidget(parent)
    , mState(state)
    , mBridge(new ProgressBridge(this))
{
    setObjectName(QStringLiteral("runsPage"));
    mSweep = namedWidget<QPushButton>(QStringLiteral("startSweep"),
                                      tr("Train one run per combination of hyperparameter values, in the background "
                                         "(as gpumem sweep)"),
                                      tr("Sweep…"), this);
    mCancel = namedWidget<QPushButton>(QStringLiteral("cancelSweep"),
                                       tr("Stop after the current batch; the runs finished so far stay"),
                                       tr("Cancel sweep"), this);
    mSaveModel = namedWidget<QPushButton>(
        QStringLiteral("saveRunModel"),
        tr("Save the selected run's trained model as a model folder that gpumem predict and the "
           "Predict page read (runs of this session; a project keeps the folder's path)"),
        tr("Save model…"), this);
    mProgress = new QProgressBar(this);
    mProgress->setObjectName(QStringLiteral("sweepProgress"));
    mProgress->setRange(0, 1000);
    mProgress->setValue(0);
    mStatus = new QLabel(this);
    mStatus->setObjectName(QStringLiteral("runsStatus"));
    mStatus->setWordWrap(true);
    mStatus->setText(tr("Every training is kept here. Select runs to overlay their error curves; "
                        "Sweep… tries several hyperparameter values."));

    mModel = new RunsTableModel(this);
    mSorted = new QSortFilterProxyModel(this);
    mSorted->setSourceModel(mModel);
    mSorted->setSortRole(RunsTableModel::SortRole);
    mTable = new QTableView(this);
    mTable->setObjectName(QStringLiteral("runsTable"));
    mTable->setModel(mSorted);
    mTable->setSortingEnabled(true);
    mTable->sortByColumn(-1, Qt::AscendingOrder); // the order they ran in, until a header is clicked
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::ExtendedSelection);
    mTable->verticalHeader()->hide();
    mTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    mTable->setAlternatingRowColors(true);

    mCurves = new RunCurvesChart(this);
    mRelation = new RunRelationChart(this);
    mParallel = new ParallelCoordinatesPlot(this);
    // The views of a sweep share the room beside the curves, one at a time.
    auto *views = new QTabWidget(this);
    views->setObjectName(QStringLiteral("runViews"));
    views->addTab(mRelation, tr("Hyperparameter"));
    views->addTab(mParallel, tr("Parallel coordinates"));

    auto *top = new QHBoxLayout;
    top->addWidget(mSweep);
    top->addWidget(mCancel);
    top->addWidget(mSaveModel);
    top->addWidget(mProgress, 1);
    auto *charts = paneSplitter(mCurves, 3, views, 2, this);
    auto *split = paneSplitter(mTable, 2, charts, 3, this, Qt::Vertical);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(mStatus);
    layout->addWidget(split, 1);

    connect(mSweep, &QPushButton::clicked, this, &RunsPage::openSweepDialog);
    connect(mCancel, &QPushButton::clicked, this, &RunsPage::cancelSweep);
    connect(mSaveModel, &QPushButton::clicked, this, [this] {
        const QString directory =
            QFileDialog::getSaveFileName(this, tr("Save the run's model folder"), {}, tr("Model folder (*)"));
        if (!directory.isEmpty())
            saveSelectedModel(directory);
    });
    connect(mTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPage::updateSaveButton);
    connect(mState, &WorkbenchState::runsChanged, this, &RunsPage::showRuns);
    connect(mTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPage::updateCurves);
    // The bridge emits from the sweep thread; queued, so the bar is touched on the GUI thread only.
    // The runs' batches and epochs are kept by core (RunRecord); the bar needs only each run's share done.
    mBridge->deliverEventsTo(
        this, [this] { mBridge->takeBatches(); }, [this] { mBridge->takeEpochs(); });
    connect(mBridge, &ProgressBridge::progressAdvanced, this, &RunsPage::showRunProgress, Qt::QueuedConnection);
    mCancel->setEnabled(false);
    showRuns();
    updateSaveButton();
    installWheelOnlyWhenFocused(this);
}

QCustomPlot *RunsPage::curvesChart() const
{
    return mCurves->chart();
}

QCustomPlot *RunsPage::relationChart() const
{
    return mRelation->chart();
}

QComboBox *RunsPage::relationBox() const
{
    return mRelation->parameterBox();
}

QString RunsPage::statusText() const
{
    return mStatus->text();
}

bool RunsPage::isSweeping() const
{
    return mJob.isRunning();
}

void RunsPage::showRuns()
{
    // Runs are appended while a sweep goes on: the runs selected before stay selected.
    const std::vector<std::size_t> selected = selectedRuns();
    mModel->setRuns(mState->runs());
    {
        const QSignalBlocker blocker(mTable->selectionModel());
        for (const std::size_t row : selected)
            if (row < mModel->runs().size())
                mTable->selectionModel()->select(mSorted->mapFromSource(mModel->index(static_cast<int>(row), 0)),
                                                 QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    mRelation->showRuns(mModel->runs(), mModel->hyperparameterColumns());
    mParallel->showRuns(mModel->runs(), mModel->hyperparameterColumns());
    updateCurves();
    updateSaveButton();
}

void RunsPage::updateSaveButton()
{
    const std::vector<std::size_t> selected = selectedRuns();
    mSaveModel->setEnabled(selected.size() == 1 && (mState->runModel(selected.front()) != nullptr ||
                                                    !mState->runs()[selected.front()].modelFolder.empty()));
}

bool RunsPage::saveSelectedModel(const QString &directory)
{
    const std::vector<std::size_t> selected = selectedRuns();
    if (selected.size() != 1)
        return false;
    const std::size_t run = selected.front();
    try {
        // A run opened from a project has its model in the project's folder, not in memory:
        // it is read back (and checked, as every model folder is) and saved again.
        prediction::SavedModel saved{mState->runModel(run), std::nullopt};
        if (!saved.model && !mState->runs()[run].modelFolder.empty())
            saved = prediction::loadSavedModel(mState->runs()[run].modelFolder);
        if (!saved.model)
            return false;
        calibration::saveCalibratedModel(*saved.model, saved.calibration, coreText(directory));
        mState->setRunModelFolder(run, coreText(QFileInfo(directory).absoluteFilePath()));
        mStatus->setText(
            tr("Saved the model of %1 to %2.").arg(QString::fromStdString(mState->runs()[run].name), directory));
        return true;
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
        return false;
    }
}

std::vector<std::size_t> RunsPage::selectedRuns() const
{
    std::vector<std::size_t> rows;
    for (const QModelIndex &index : mTable->selectionModel()->selectedRows())
        rows.push_back(static_cast<std::size_t>(mSorted->mapToSource(index).row()));
    std::sort(rows.begin(), rows.end());
    return rows;
}

void RunsPage::updateCurves()
{
    std::vector<std::size_t> shown = selectedRuns();
    const auto &all = mModel->runs();
    // Nothing selected: the latest runs, so the chart is never empty while runs exist.
    if (shown.empty())
        for (std::size_t index = all.size() > 10 ? all.size() - 10 : 0; index < all.size(); ++index)
            shown.push_back(index);
    mCurves->showRuns(all, shown);
}

void RunsPage::openSweepDialog()
{
    SweepDialog dialog(mState->hyperparameters(), this);
    dialog.addParameter(QStringLiteral("learning_rate"), QStringLiteral("0.001,0.003,0.01"));
    if (dialog.exec() != QDialog::Accepted)
        return;
    try {
        startSweep(dialog.plan(), dialog.validationFraction());
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
    }
}

bool RunsPage::startSweep(const runs::SweepPlan &plan, double validationFraction)
{
    if (isSweeping())
        return false;
    workflows::SweepConfiguration configuration;
    // Named by sweep and trial, so that the runs of two sweeps stay apart in the table.
    configuration.namePrefix = "sweep " + std::to_string(mSweepCount + 1) + " trial ";
    // A sweep computes where and how a training would.
    configuration.compute.device = coreText(mState->device());
    configuration.compute.threads = mState->threads();
    configuration.compute.seed = plan.seed;
    configuration.plan = plan;
    configuration.base = mState->hyperparameters();
    configuration.holdOutFraction = validationFraction;
    std::shared_ptr<const data::Dataset> dataset;
    try {
        if (!mState->table())
            throw std::runtime_error(tr("No data loaded: open a CSV file first.").toStdString());
        std::vector<std::string> warnings;
        dataset = mState->buildDataset(warnings);
        if (!dataset->hasTarget())
            throw std::runtime_error(tr("No target column: choose one on the Data page.").toStdString());
        // Every trial's values are checked before the first one trains.
        mSweepTrials = static_cast<int>(workflows::sweepTrials(configuration).trials.size());
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
        return false;
    }
    ++mSweepCount;
    mSweepDone = 0;
    mProgress->setValue(0);
    mProgress->setFormat(tr("%1/%2 runs").arg(0).arg(mSweepTrials));
    mStatus->setText(tr("Sweeping %1 runs on %L2 rows, %3 thread(s)…")
                         .arg(mSweepTrials)
                         .arg(dataset->rowCount())
                         .arg(configuration.compute.threads));
    ProgressBridge *bridge = mBridge;
    mJob.start([this, dataset, configuration, bridge](SweepOutcome &outcome, runtime::OperationControl *control) {
        // The workflow sets its compute threads on this thread, the one that trains.
        BridgedSweepObserver observer(bridge, [this](workflows::TrainResult &run) {
            // Queued to the page, which owns the state; dropped if the page is gone.
            QMetaObject::invokeMethod(
                this,
                [this, record = std::move(run.record), model = std::move(run.model)] { addSweepRun(record, model); },
                Qt::QueuedConnection);
        });
        outcome.finished = static_cast<int>(workflows::sweep(*dataset, configuration, observer, control).runs.size());
        outcome.cancelled = control->isCancelled();
    });
    mSweep->setEnabled(false);
    mCancel->setEnabled(true);
    return true;
}

void RunsPage::cancelSweep()
{
    if (mJob.cancel())
        mStatus->setText(tr("Cancelling after the current batch…"));
}

void RunsPage::showRunProgress(double within)
{
    if (mSweepTrials == 0)
        return;
    mProgress->setValue(static_cast<int>(1000.0 * (mSweepDone + std::min(1.0, within)) / mSweepTrials));
}

void RunsPage::addSweepRun(const runs::RunRecord &run, std::shared_ptr<models::Regressor> model)
{
    ++mSweepDone;
    mProgress->setValue(static_cast<int>(1000.0 * mSweepDone / std::max(1, mSweepTrials)));
    mProgress->setFormat(tr("%1/%2 runs").arg(mSweepDone).arg(mSweepTrials));
    mState->addRun(run, std::move(model));
}

void RunsPage::finishSweep()
{
    // Runs still queued from the sweep thread arrive before this handler's own signal.
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
    const SweepOutcome outcome = mJob.take();
    mSweep->setEnabled(true);
    mCancel->setEnabled(false);
    if (!outcome.error.isEmpty())
        mStatus->setText(tr("The sweep stopped: %1").arg(outcome.error));
    else if (outcome.cancelled)
        mStatus->setText(tr("Sweep cancelled after %1 of %2 runs; the finished runs are kept.")
                             .arg(outcome.finished)
                             .arg(mSweepTrials));
    else
        mStatus->setText(tr("Sweep finished: %1 runs. Sort by a metric column, or choose a hyperparameter for the "
                            "chart.")
                             .arg(outcome.finished));
    Q_EMIT sweepFinished(outcome.finished, outcome.cancelled);
}

} // namespace gpumem::ui
