// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"
#include "training/TrainingProgress.h"
#include "ui/app/BackgroundTask.h"
#include "ui/app/RememberedFields.h"
#include "ui/app/ReportWriter.h"
#include "ui/app/RunCommand.h"

#include <QWidget>

#include <map>
#include <memory>

class QChart;
class QCheckBox;
class QChartView;
class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTabWidget;
class QEvent;
class QResizeEvent;

namespace gpumem::workflows {
struct CompareConfiguration;
}

namespace gpumem::ui {

class JobRowPanel;
class MetricsTableModel;
class ModelProgressTable;
class NetworkPresetBox;
class PartialDependencePane;
class ProgressBridge;
class WorkbenchState;
class WorstRowsModel;

// The comparison page: choose models, k-fold or hold-out and a seed; run the
// comparison in the background with per-model progress and cancel; then read
// the results side by side: a bar chart per metric with fold error bars, the
// metrics table (best highlighted, significance marked), predicted-vs-actual
// scatter (a click shows the job) and residual histogram per model, each model's
// permutation importance and partial dependence, and the worst under-predictions.
class ComparePage : public QWidget, public RunCommandSource
{
    Q_OBJECT

  public:
    explicit ComparePage(WorkbenchState *state, QWidget *parent = nullptr);

    // Ticks exactly the given models (registry names) in the list.
    void setSelectedModels(const QStringList &names);
    QStringList selectedModels() const;
    void setFolds(int folds);
    // The comparison the form describes now: the one start() runs on the data page's
    // data. Throws std::runtime_error, saying why, when no model is ticked.
    workflows::CompareConfiguration configuration() const;
    // `gpumem compare` with the data page's file and roles and this configuration.
    RunCommand runCommand() const override;
    // Starts the comparison; returns false (and shows why) when it cannot run.
    bool start();
    void cancel();
    bool isRunning() const;

    // The charts on show, for tests and export.
    std::vector<QChartView *> chartViews() const { return mChartViews; }
    QTableView *metricsTable() const { return mMetricsView; }
    QTableView *worstTable() const { return mWorstView; }
    QString statusText() const;
    // Gathers the report of the comparison on show.
    ReportContent reportContent();

  Q_SIGNALS:
    void comparisonFinished(bool succeeded);

  protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

  private:
    // Where a chart goes: its grid, its position among the grid's charts, and how
    // many columns the grid may have at most.
    struct ChartPlacement
    {
        QChartView *view;
        QGridLayout *grid;
        int index;
        int mostColumns;
    };
    struct Outcome
    {
        std::shared_ptr<const evaluation::ExperimentResult> result;
        report::ComparisonContext context; // the header of the result's reports
        QString error;
    };

    // Builds the result tabs: metric charts and table, scatter plots, residuals, the bound's curves, worst rows.
    void buildResults();
    // Folds and repetitions for k-fold, the test share for a hold-out split.
    void enableValidationFields();
    // Clears the last run's status and progress rows, which spoke of the file loaded before.
    void forgetLastRun();
    void finish();
    void showResults();
    // Sets the form to the models, validation, seed and bound of the comparison on show.
    void showSettingsOfResults();
    // Fills the Importance and Partial dependence tabs and the clicked job's panel from the comparison on show.
    void showExplanations();
    void clearCharts();
    QChartView *addChart(QChart *chart, QGridLayout *grid, int index, int columns, const QString &name);
    int chartColumns(int most) const;
    void placeChart(const ChartPlacement &placement);
    void rememberSettings() const;
    // Sizes the tables' columns to their text and the metrics table to show every model.
    void fitTables();
    void updateButtons();

    WorkbenchState *mState;
    ProgressBridge *mBridge;
    QListWidget *mModels;
    NetworkPresetBox *mPreset;
    QComboBox *mValidation;
    QSpinBox *mFolds;
    QSpinBox *mRepeats;
    QDoubleSpinBox *mTestFraction;
    QSpinBox *mSeed;
    QPushButton *mRun;
    QPushButton *mCancel;
    QProgressBar *mOverall;
    ModelProgressTable *mProgressTable;
    QLabel *mStatus;
    QTabWidget *mResults;
    QGridLayout *mMetricGrid;
    QGridLayout *mScatterGrid;
    QGridLayout *mResidualGrid;
    QGridLayout *mBoundGrid; // the risk-versus-waste chart of a calibrated comparison
    QLabel *mBoundHint;      // what to do when there is no bound to chart
    QGridLayout *mImportanceGrid;
    QLabel *mImportanceHint; // what to do when the comparison measured no importance
    PartialDependencePane *mPartialDependence;
    JobRowPanel *mJobRow; // the job of the scatter point clicked last
    QCheckBox *mCalibrate;
    QDoubleSpinBox *mCoverage;
    MetricsTableModel *mMetrics;
    QTableView *mMetricsView;
    WorstRowsModel *mWorst;
    QTableView *mWorstView;
    std::vector<QChartView *> mChartViews;
    std::vector<ChartPlacement> mPlacements; // re-laid out when the page is resized
    RememberedFields mRemembered;            // the run's settings, kept between sessions
    std::shared_ptr<const data::Dataset> mRunningDataset;
    BackgroundJob<Outcome> mJob{this, &ComparePage::finish};
};

} // namespace gpumem::ui
