// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runs/RunRecord.h"
#include "runs/SweepPlan.h"
#include "training/TrainingProgress.h"
#include "ui/app/BackgroundTask.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gpumem::models {
class Regressor;
}

namespace gpumem::ui {

class ParallelCoordinatesPlot;
class ProgressBridge;
class RunCurvesChart;
class RunRelationChart;
class RunsTableModel;
class WorkbenchState;

// The runs page, like TensorBoard's runs and HParams views: every training run
// of the session and the project in a sortable table (hyperparameters that
// differ, data file, validation metrics, the best highlighted), the error curves
// of the selected runs overlaid in their own colours with a legend, a chart of one
// hyperparameter (a sweep's, at first) against the validation RMSE, and the runs
// as parallel coordinates. A sweep trains its runs one
// after the other in a pool thread (with the Training page's device and thread
// settings); each appears in the table as it finishes, with a progress bar and
// a cancel button.
class RunsPage : public QWidget
{
    Q_OBJECT

  public:
    explicit RunsPage(WorkbenchState *state, QWidget *parent = nullptr);

    // Asks for a sweep and starts it.
    void openSweepDialog();
    // Starts a sweep of plan over the network with the Model page's values on the
    // Data page's dataset; returns false (and says why) when it cannot start.
    bool startSweep(const runs::SweepPlan &plan, double validationFraction);
    // Stops the sweep after the current batch; the runs finished so far stay.
    void cancelSweep();
    bool isSweeping() const;
    // Saves the trained model of the one selected run (a run of this session) as a model
    // folder at directory and records the folder in the run; false (saying why) otherwise.
    bool saveSelectedModel(const QString &directory);

    RunsTableModel *model() const { return mModel; }
    QTableView *table() const { return mTable; }
    RunCurvesChart *curves() const { return mCurves; }
    QCustomPlot *curvesChart() const;
    QCustomPlot *relationChart() const;
    QComboBox *relationBox() const;
    ParallelCoordinatesPlot *parallelCoordinates() const { return mParallel; }
    QProgressBar *progressBar() const { return mProgress; }
    QString statusText() const;

  Q_SIGNALS:
    // Emitted when a sweep ends: how many runs it added, and whether it was cancelled.
    void sweepFinished(int runs, bool cancelled);

  private:
    struct SweepOutcome
    {
        int finished = 0;
        bool cancelled = false;
        QString error;
    };

    void showRuns();
    void updateCurves();
    // The running sweep run has done `within` (0..1) of its fit.
    void showRunProgress(double within);
    void addSweepRun(const runs::RunRecord &run, std::shared_ptr<models::Regressor> model);
    void updateSaveButton();
    void finishSweep();
    std::vector<std::size_t> selectedRuns() const;

    WorkbenchState *mState;
    RunsTableModel *mModel;
    QSortFilterProxyModel *mSorted;
    QTableView *mTable;
    RunCurvesChart *mCurves;
    RunRelationChart *mRelation;
    ParallelCoordinatesPlot *mParallel;
    QPushButton *mSweep;
    QPushButton *mCancel;
    QPushButton *mSaveModel;
    QProgressBar *mProgress;
    QLabel *mStatus;
    ProgressBridge *mBridge;
    int mSweepTrials = 0;
    int mSweepDone = 0;
    int mSweepCount = 0; // sweeps started on this page
    BackgroundJob<SweepOutcome> mJob{this, &RunsPage::finishSweep};
};

// Returns the colour of the index-th run in overlaid charts: ten distinct hues, repeating.
QColor runColour(std::size_t index);

} // namespace gpumem::ui
