// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/Calibration.h"
#include "runs/RunRecord.h"
#include "training/TrainingProgress.h"
#include "ui/app/BackgroundTask.h"
#include "ui/app/RunCommand.h"

#include <QWidget>

#include <limits>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace gpumem::models {
class Regressor;
}

namespace gpumem::workflows {
struct TrainConfiguration;
}

namespace gpumem::ui {

class LossPlot;
class ProgressBridge;
class WorkbenchState;

// The training page: trains the neural network with the model page's values on
// the data page's dataset, in a pool thread, with start, pause, resume and stop;
// shows the live loss and learning-rate curves, a progress bar with ETA and
// samples per second, and lets the user pick the device and thread count.
class TrainingPage : public QWidget, public RunCommandSource
{
    Q_OBJECT

  public:
    explicit TrainingPage(WorkbenchState *state, QWidget *parent = nullptr);

    // Starts a training; returns false (and shows why) when the data or values are unusable.
    bool start();
    // The training the page would start now: the model page's values, the device,
    // threads and calibration on show. start() runs it on the data page's data.
    workflows::TrainConfiguration configuration() const;
    // `gpumem train` with the data page's file and roles and this configuration,
    // writing the model folder "model".
    RunCommand runCommand() const override;
    void pause();
    void resume();
    void stop();
    bool isRunning() const;

    // The last trained model, or null.
    std::shared_ptr<models::Regressor> trainedModel() const { return mTrained; }
    // The calibration of the trained model's upper bound, when "Calibrate" was on.
    const std::optional<calibration::Calibration> &trainedCalibration() const { return mCalibration; }
    // Turns the calibration of an upper bound at coverage on or off for the next training.
    void setCalibration(bool enabled, double coverage = 0.95);
    // Whether a model was trained and not saved since.
    bool hasUnsavedModel() const { return mTrained && !mTrainedSaved; }
    // Records that the trained model was saved elsewhere (with a project), so that
    // quitting does not ask to save it again.
    void markModelSaved() { mTrainedSaved = mTrained != nullptr; }
    // Asks for a folder and saves the trained model there; true when it was saved.
    bool saveModel();
    LossPlot *plot() const { return mPlot; }
    QString statusText() const;
    // The lowest validation RMSE (MiB) of the run so far, or NaN before the first epoch
    // with validation rows.
    double validationRmse() const;
    // The result of the last finished training (its epochs carry samples per second).
    const training::TrainingResult &lastResult() const { return mLastResult; }

  Q_SIGNALS:
    void trainingFinished(bool succeeded);
    // Emitted with the record of every training that ran (succeeded, stopped or diverged).
    void runRecorded(const gpumem::runs::RunRecord &run);
    // Emitted when the last trained model was saved to directory.
    void modelSaved(const QString &directory);

  private:
    struct Outcome
    {
        std::shared_ptr<models::Regressor> model;
        std::optional<calibration::Calibration> calibration;
        training::TrainingResult result;
        runs::RunRecord record; // with its validation metrics, as a sweep's runs
        QString device;
        QString error;
    };

    // Sends command to the running training and shows status; does nothing when none runs.
    void steer(void (runtime::OperationControl::*command)(), const QString &status);
    void takeBatches();
    void takeEpochs();
    void showReference();
    void finish();
    void updateButtons();

    WorkbenchState *mState;
    ProgressBridge *mBridge;
    LossPlot *mPlot;
    QPushButton *mStart;
    QPushButton *mPause;
    QPushButton *mResume;
    QPushButton *mStop;
    QPushButton *mSave;
    QComboBox *mDevice;
    QSpinBox *mThreads;
    QCheckBox *mCalibrate;
    QDoubleSpinBox *mCoverage;
    QProgressBar *mProgress;
    QLabel *mSpeed;
    QLabel *mAccuracy; // the validation RMSE in MiB so far
    double mBestRmse = std::numeric_limits<double>::quiet_NaN();
    double mReferenceRmse = std::numeric_limits<double>::quiet_NaN(); // the reference baseline's, last comparison
    QLabel *mStatus;
    std::shared_ptr<models::Regressor> mTrained;
    std::optional<calibration::Calibration> mCalibration;
    bool mTrainedSaved = false;
    training::TrainingResult mLastResult;
    BackgroundJob<Outcome> mJob{this, &TrainingPage::finish};
};

} // namespace gpumem::ui
