// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/TrainingPage.h"

#include "calibration/CalibrationJson.h"
#include "models/RegressorRegistry.h"
#include "runtime/LibraryVersions.h"
#include "ui/app/ProgressBridge.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/LossPlot.h"
#include "ui/widgets/CoverageBox.h"
#include "ui/widgets/DurationText.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"
#include "workflows/CommandLineOf.h"
#include "workflows/TrainWorkflow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace gpumem::ui {

namespace {
// The reference baseline's display name, e.g. "XGBoost".
QString referenceTitle()
{
    return qtText(models::regressorTitle(models::referenceBaseline()));
}
} // namespace

TrainingPage::TrainingPage(WorkbenchState *state, QWidget *parent)
    : QWidget(parent)
    , mState(state)
    , mBridge(new ProgressBridge(this))
{
    setObjectName(QStringLiteral("trainingPage"));
    mStart = namedWidget<QPushButton>(QStringLiteral("startTraining"),
                                      tr("Train the network on the loaded data with the model page's values (F5)"),
                                      tr("Start"), this);
    mStart->setShortcut(Qt::Key_F5);
    mPause =
        namedWidget<QPushButton>(QStringLiteral("pauseTraining"),
                                 tr("Pause after the current batch; the weights stay in memory"), tr("Pause"), this);
    mResume = namedWidget<QPushButton>(QStringLiteral("resumeTraining"), tr("Continue a paused training"), tr("Resume"),
                                       this);
    mStop = namedWidget<QPushButton>(QStringLiteral("stopTraining"),
                                     tr("Stop after the current batch; the model is not kept"), tr("Stop"), this);
    mSave =
        namedWidget<QPushButton>(QStringLiteral("saveModel"),
                                 tr("Save the trained model as a folder that gpumem predict and the Predict page read"),
                                 tr("Save model…"), this);

    mDevice =
        namedWidget<QComboBox>(QStringLiteral("deviceBox"),
                               tr("Where to train: auto uses a CUDA GPU when LibTorch sees one, else the CPU"), this);
    mDevice->addItem(tr("auto"), QStringLiteral("auto"));
    mDevice->addItem(tr("CPU"), QStringLiteral("cpu"));
    if (runtime::libraryVersions().cudaAvailable)
        mDevice->addItem(tr("CUDA GPU"), QStringLiteral("cuda"));
    mThreads = namedWidget<QSpinBox>(QStringLiteral("threadsBox"),
                                     tr("CPU threads: each batch is split across this many workers (results do not "
                                        "depend on it). One is fastest for small models on small machines."),
                                     this);
    mThreads->setRange(1, std::max(1, QThread::idealThreadCount()));
    mThreads->setValue(1);

    mDevice->setCurrentIndex(std::max(0, mDevice->findData(mState->device())));
    mThreads->setValue(mState->threads());
    // A remembered choice this machine cannot offer (no CUDA, fewer cores) gives way to what the form shows.
    mState->setDevice(mDevice->currentData().toString());
    mState->setThreads(mThreads->value());
    connect(mDevice, &QComboBox::currentIndexChanged, this,
            [this] { mState->setDevice(mDevice->currentData().toString()); });
    connect(mThreads, &QSpinBox::valueChanged, mState, &WorkbenchState::setThreads);

    mCalibrate = namedWidget<QCheckBox>(QStringLiteral("calibrateBox"),
                                        tr("Set a fifth of the rows aside to calibrate an upper bound: the memory to "
                                           "request so that this share of new jobs fits (as gpumem train --coverage)"),
                                        tr("Upper bound at coverage"), this);
    mCoverage = new CoverageBox(QStringLiteral("trainingCoverage"), this);
    connect(mCalibrate, &QCheckBox::toggled, mCoverage, &QWidget::setEnabled);

    mProgress = namedWidget<QProgressBar>(QStringLiteral("trainingProgress"), tr("Share of all batches done"), this);
    mProgress->setValue(0);
    mProgress->setTextVisible(true);
    mProgress->setFormat(QStringLiteral("%p%"));
    mSpeed = namedWidget<QLabel>(QStringLiteral("trainingSpeed"),
                                 tr("Epoch, training throughput and the estimated time left"), this);
    mAccuracy = namedWidget<QLabel>(QStringLiteral("validationRmse"),
                                    tr("How far off the network is so far, in MiB: the RMSE on the validation rows "
                                       "(validation_fraction of the training rows), after each epoch"),
                                    this);
    mStatus = new QLabel(tr("Load data, choose the hyperparameters, then press Start."), this);
    mStatus->setObjectName(QStringLiteral("trainingStatus"));
    mStatus->setWordWrap(true);
    mPlot = new LossPlot(this);

    auto *buttons = new QHBoxLayout;
    for (QPushButton *button : {mStart, mPause, mResume, mStop, mSave})
        buttons->addWidget(button);
    buttons->addSpacing(20);
    buttons->addWidget(new QLabel(tr("Device:"), this));
    buttons->addWidget(mDevice);
    buttons->addWidget(new QLabel(tr("Threads:"), this));
    buttons->addWidget(mThreads);
    buttons->addStretch(1);
    // On a row of their own, so that the page keeps within a 1024-pixel-wide screen.
    auto *calibrationRow = new QHBoxLayout;
    calibrationRow->addWidget(mCalibrate);
    calibrationRow->addWidget(mCoverage);
    calibrationRow->addStretch(1);

    // A large font wraps them onto a second line rather than widen the page past the window.
    for (QLabel *label : {mSpeed, mAccuracy})
        label->setWordWrap(true);
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(mProgress, 1);
    progressRow->addWidget(mSpeed, 1);
    progressRow->addWidget(mAccuracy, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addLayout(calibrationRow);
    layout->addLayout(progressRow);
    layout->addWidget(mStatus);
    layout->addWidget(mPlot, 1);

    connect(mStart, &QPushButton::clicked, this, &TrainingPage::start);
    connect(mPause, &QPushButton::clicked, this, &TrainingPage::pause);
    connect(mResume, &QPushButton::clicked, this, &TrainingPage::resume);
    connect(mStop, &QPushButton::clicked, this, &TrainingPage::stop);
    connect(mSave, &QPushButton::clicked, this, &TrainingPage::saveModel);
    // The bridge emits from the training thread; queued delivery runs these on the
    // GUI thread, where the plot may be touched.
    mBridge->deliverEventsTo(this, &TrainingPage::takeBatches, &TrainingPage::takeEpochs);
    mBridge->showProgressOn(mProgress);
    // The line a class watches the network pass: the reference baseline's RMSE in the last comparison.
    connect(mState, &WorkbenchState::comparisonChanged, this, &TrainingPage::showReference);
    showReference();
    // Curves and a model of other data would pass for this data's: new data marks them stale.
    connect(mState, &WorkbenchState::tableChanged, this, [this] {
        if (!mTrained || isRunning())
            return;
        mPlot->clear();
        mStatus->setText(tr("The data changed: the model trained before was trained on other data, and its curves "
                            "are cleared. Train again, or save that model knowing so."));
    });
    updateButtons();
    installWheelOnlyWhenFocused(this);
}

bool TrainingPage::isRunning() const
{
    return mJob.isRunning();
}

QString TrainingPage::statusText() const
{
    return mStatus->text();
}

bool TrainingPage::start()
{
    if (isRunning())
        return false;
    std::shared_ptr<const data::Dataset> dataset;
    std::vector<std::string> warnings;
    try {
        if (!mState->table())
            throw std::runtime_error(tr("No data loaded: open a CSV file first.").toStdString());
        dataset = mState->buildDataset(warnings);
        if (!dataset->hasTarget())
            throw std::runtime_error(tr("No target column: choose one on the Data page.").toStdString());
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
        return false;
    }
    const workflows::TrainConfiguration configuration = this->configuration();

    mPlot->clear();
    mPlot->setLossName(configuration.hyperparameters.choice("loss") == "huber" ? tr("Huber") : tr("MSE"));
    mProgress->setValue(0);
    mSpeed->clear();
    mAccuracy->clear();
    mBestRmse = std::numeric_limits<double>::quiet_NaN();
    QString status = tr("Training on %L1 rows…").arg(dataset->rowCount());
    for (const auto &warning : warnings)
        status += QStringLiteral(" ") + QString::fromStdString(warning);
    mStatus->setText(status);
    ProgressBridge *bridge = mBridge;
    mJob.start([dataset, configuration, bridge](Outcome &outcome, runtime::OperationControl *control) {
        // The workflow sets its compute threads on this thread, the one that trains, as
        // LibTorch keeps them per thread (fit() itself switches grad off where it evaluates).
        // The run's metrics are computed here too, so the GUI thread never predicts.
        workflows::TrainResult trained = workflows::train(*dataset, configuration, bridge, control);
        outcome.model = std::move(trained.model);
        outcome.calibration = std::move(trained.fit.calibration);
        outcome.result = std::move(trained.fit.training);
        outcome.record = std::move(trained.record);
        outcome.device = QString::fromStdString(trained.device);
    });
    updateButtons();
    return true;
}

workflows::TrainConfiguration TrainingPage::configuration() const
{
    workflows::TrainConfiguration configuration;
    configuration.hyperparameters = mState->hyperparameters();
    configuration.compute.device = coreText(mState->device());
    configuration.compute.threads = mState->threads();
    if (mCalibrate->isChecked()) {
        // The same split of the rows as `gpumem train --coverage`: fit on most, calibrate on the rest.
        configuration.calibration.emplace();
        configuration.calibration->coverage = mCoverage->value();
        configuration.calibration->seed = configuration.compute.seed;
    }
    return configuration;
}

RunCommand TrainingPage::runCommand() const
{
    if (!mState->table())
        return {{}, tr("No data loaded: open a CSV file first.")};
    if (mState->targetName().empty())
        return {{}, tr("No target column: choose one on the Data page.")};
    return {qtText(workflows::commandLineOf(workflows::argumentsOf(mState->dataRequest(), configuration(), "model"))),
            {}};
}

void TrainingPage::pause()
{
    steer(&runtime::OperationControl::pause, tr("Paused after the current batch. Resume to continue."));
}

void TrainingPage::resume()
{
    steer(&runtime::OperationControl::resume, tr("Training…"));
}

void TrainingPage::stop()
{
    steer(&runtime::OperationControl::cancel, tr("Stopping…"));
}

void TrainingPage::steer(void (runtime::OperationControl::*command)(), const QString &status)
{
    if (runtime::OperationControl *control = mJob.control()) {
        (control->*command)();
        mStatus->setText(status);
    }
    updateButtons();
}

void TrainingPage::takeBatches()
{
    const auto batches = mBridge->takeBatches();
    if (batches.empty())
        return;
    for (const auto &event : batches) {
        const auto &progress = event.progress;
        const double x =
            progress.epoch - 1 + static_cast<double>(progress.batch) / std::max<std::int64_t>(1, progress.batches);
        mPlot->addBatch(x, progress.trainLoss, progress.learningRate);
    }
    const auto &last = batches.back().progress;
    mSpeed->setText(tr("epoch %1/%2 · %L3 samples/s · elapsed %4 · ETA %5")
                        .arg(last.epoch)
                        .arg(last.epochs)
                        .arg(static_cast<qlonglong>(std::llround(last.samplesPerSecond)))
                        .arg(durationText(last.elapsedSeconds), durationText(last.remainingSeconds)));
    mPlot->scheduleReplot();
}

void TrainingPage::takeEpochs()
{
    for (const auto &event : mBridge->takeEpochs()) {
        const auto &progress = event.progress;
        if (event.member >= 0) {
            mPlot->addMemberEpoch(event.member, progress);
            continue;
        }
        mPlot->addEpoch(progress);
        if (!std::isfinite(progress.validationRmse)) {
            // Without validation rows, the error on the training rows is all there is to read: said so.
            if (std::isfinite(progress.trainRmse))
                mAccuracy->setText(tr("training RMSE %L1 MiB (no validation rows: set validation_fraction)")
                                       .arg(progress.trainRmse, 0, 'f', 1));
            continue;
        }
        if (!(mBestRmse <= progress.validationRmse))
            mBestRmse = progress.validationRmse;
        QString text =
            tr("validation RMSE %L1 MiB (best %L2)").arg(progress.validationRmse, 0, 'f', 1).arg(mBestRmse, 0, 'f', 1);
        if (std::isfinite(mReferenceRmse))
            text += mBestRmse < mReferenceRmse
                        ? tr(" — below %1's %L2").arg(referenceTitle()).arg(mReferenceRmse, 0, 'f', 1)
                        : tr(" — %1: %L2").arg(referenceTitle()).arg(mReferenceRmse, 0, 'f', 1);
        mAccuracy->setText(text);
        mAccuracy->setStyleSheet(std::isfinite(mReferenceRmse) && mBestRmse < mReferenceRmse
                                     ? QStringLiteral("color: #1e6e28; font-weight: bold;")
                                     : QString());
    }
    mPlot->scheduleReplot();
}

void TrainingPage::showReference()
{
    mReferenceRmse = std::numeric_limits<double>::quiet_NaN();
    if (const auto comparison = mState->comparison())
        for (const auto &model : comparison->models)
            if (model.name == models::referenceBaseline() && std::isfinite(model.mean.rmse))
                mReferenceRmse = model.mean.rmse;
    mPlot->setReferenceRmse(mReferenceRmse, tr("%1 RMSE in the comparison").arg(referenceTitle()));
}

double TrainingPage::validationRmse() const
{
    return mBestRmse;
}

void TrainingPage::finish()
{
    // Whatever is still buffered belongs to the finished run.
    takeBatches();
    takeEpochs();
    const Outcome outcome = mJob.take();
    bool succeeded = false;
    if (!outcome.error.isEmpty()) {
        mStatus->setText(outcome.error);
    } else {
        mLastResult = outcome.result;
        // The workflow decides what a run keeps: a finished run, or a stopped one's best
        // epoch so far. A diverged run keeps no model, and neither does the page: "Save
        // model…" must never save an earlier run under this one's name.
        succeeded = outcome.model != nullptr;
        mTrained = outcome.model;
        mCalibration = succeeded ? outcome.calibration : std::nullopt;
        mTrainedSaved = false;
        if (succeeded)
            mProgress->setValue(mProgress->maximum());
        mStatus->setText(
            tr("%1 in %2 on %3 (best epoch %4).%5")
                .arg(QString::fromStdString(outcome.result.message), durationText(outcome.result.seconds),
                     outcome.device)
                .arg(outcome.result.bestEpoch)
                .arg(succeeded ? tr(" Save the model, or try it on the Predict page.") : tr(" No model was kept.")));
    }
    updateButtons();
    if (outcome.error.isEmpty())
        Q_EMIT runRecorded(outcome.record);
    Q_EMIT trainingFinished(succeeded);
}

void TrainingPage::updateButtons()
{
    const bool running = isRunning();
    const runtime::OperationControl *control = mJob.control();
    const bool paused = control && control->isPaused();
    mStart->setEnabled(!running);
    mPause->setEnabled(running && !paused);
    mResume->setEnabled(paused);
    mStop->setEnabled(running);
    mSave->setEnabled(!running && mTrained);
    mDevice->setEnabled(!running);
    mThreads->setEnabled(!running);
    mCalibrate->setEnabled(!running);
    mCoverage->setEnabled(!running && mCalibrate->isChecked());
}

void TrainingPage::setCalibration(bool enabled, double coverage)
{
    mCalibrate->setChecked(enabled);
    mCoverage->setValue(coverage);
}

bool TrainingPage::saveModel()
{
    if (!mTrained)
        return false;
    const QString directory = QFileDialog::getSaveFileName(this, tr("Save model folder"), {}, tr("Model folder (*)"));
    if (directory.isEmpty())
        return false;
    try {
        calibration::saveCalibratedModel(*mTrained, mCalibration, coreText(directory));
        mTrainedSaved = true;
        mStatus->setText(tr("Saved the model to %1.").arg(directory));
        Q_EMIT modelSaved(directory);
        return true;
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
        return false;
    }
}

} // namespace gpumem::ui
