// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/RememberedFields.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QWidget>

#include <memory>

class QComboBox;
class QCustomPlot;
class QDragEnterEvent;
class QDropEvent;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QDoubleSpinBox;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace gpumem::estimate {
struct EstimateResult;
}

namespace gpumem::ui {

// Returns whether path names a file the page opens as a TorchScript model (.pt, .pth).
bool isModelFilePath(const QString &path);

// The "Your model" page: open or drop a TorchScript file, describe its input
// and training step, pick a GPU profile and batch sizes, and estimate the
// training memory on the CPU with core's MemoryEstimator (the same call as
// `gpumem estimate`) in a worker thread. Shows the estimates, memory against
// batch size with the GPU's capacity and the largest batch that fits, the
// breakdown at the peak, the timeline of one batch by category with its phases,
// and which GPU profiles the chosen batch fits. The form is remembered.
class YourModelPage : public QWidget
{
    Q_OBJECT

  public:
    explicit YourModelPage(QWidget *parent = nullptr);
    ~YourModelPage() override;

    // Takes path as the model to estimate; loads nothing (loading runs its code) until start().
    void openModel(const QString &path);
    QString modelPath() const { return mModelPath; }
    // Asks for a .pt file and opens it.
    void openModelDialog();

    // Starts an estimate with the form's values; false (the error line says why) when
    // the form does not describe one, or a run is still going on.
    bool start();
    // Stops waiting for the running estimate: the core cannot be interrupted, so its
    // result is discarded when it arrives, and the page says so.
    void cancel();
    // True while a worker runs, the result of a cancelled one included.
    bool isRunning() const;

    // The last estimate shown, or null.
    const estimate::EstimateResult *result() const;
    // The error line (empty when there is none) and the status line.
    QString errorText() const;
    QString statusText() const;

  Q_SIGNALS:
    // A run's outcome is on show: its estimates, or an error.
    void estimateFinished(bool succeeded);
    // The user cancelled; the running worker's result will be discarded.
    void estimateCancelled();

  protected:
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

  private:
    struct Outcome;

    QWidget *buildForm();
    QWidget *buildResults();
    void restoreSettings();
    void rememberSettings() const;
    void updateInputKind();
    void finishRun();
    void showError(const QString &message);
    void showResult();
    void fitTableHeight();
    // Fills the GPU table for the batch chosen in its combo box.
    void showProfiles();
    void updateRunning();

    QString mModelPath;
    QLabel *mModelName;
    QLineEdit *mShapes;
    QComboBox *mInputKind;
    QSpinBox *mVocabulary;
    QComboBox *mLoss;
    QSpinBox *mClasses;
    QComboBox *mOptimizer;
    QComboBox *mDtype;
    QComboBox *mGpu;
    QDoubleSpinBox *mContext; // the CUDA context in MiB; 0 keeps the profile's
    QLineEdit *mBatchSizes;
    QPushButton *mEstimate;
    QPushButton *mCancel;
    QProgressBar *mBusy;
    QLabel *mStatus;
    QLabel *mError;
    QLabel *mSummary;
    QTableWidget *mEstimates;
    QTabWidget *mCharts;
    QCustomPlot *mMemoryChart;
    QCustomPlot *mBreakdownChart;
    QCustomPlot *mTimelineChart;
    QComboBox *mProfileBatch;
    QTableWidget *mProfiles;
    QTimer *mElapsedTicker;
    RememberedFields mRemembered; // the form, kept between sessions
    QElapsedTimer mElapsed;
    QFutureWatcher<std::shared_ptr<const Outcome>> mWatcher;
    bool mRunning = false;                 // from start() until finishRun(), which a cancel does not shorten
    bool mCancelled = false;               // the running worker's result is to be discarded
    std::shared_ptr<const Outcome> mShown; // the outcome on show: its result and the installed profiles
};

} // namespace gpumem::ui
