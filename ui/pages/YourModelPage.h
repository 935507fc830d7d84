// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/app/BackgroundTask.h"
#include "ui/app/RunCommand.h"

#include <QElapsedTimer>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QComboBox;
class QCustomPlot;
class QDragEnterEvent;
class QDropEvent;
class QLabel;
class QProgressBar;
class QScrollArea;
class QPushButton;
class QTableWidget;
class QTabWidget;
class QTimer;

namespace gpumem::estimate {
struct EstimateResult;
}

namespace gpumem::workflows {
struct EstimateOutcome;
struct EstimateSettings;
struct RecipeEstimate;
struct SequencePoint;
} // namespace gpumem::workflows

namespace gpumem::ui {

class EstimateForm;
class ProgressBridge;

// Returns whether path names a file the page opens as a TorchScript model (.pt, .pth).
bool isModelFilePath(const QString &path);

// The "Your model" page: open or drop a TorchScript file and describe its input
// and training step, or name a language model's config.json and its recipe; pick a
// GPU profile and batch sizes (EstimateForm), and estimate the memory on the CPU
// with the same workflow as `gpumem estimate` (workflows::estimateModel) in a
// worker thread, with its progress and a cancel. Shows the estimates, memory
// against batch size with the GPU's capacity and the largest batch that fits, the
// breakdown at the peak, the timeline of one batch by category with its phases, and
// which GPU profiles the chosen batch fits; for a language model also its memory
// against the sequence length (workflows::memoryAgainstSequence) and the training
// recipes side by side (workflows::estimateRecipes), in the same worker.
class YourModelPage : public QWidget, public RunCommandSource
{
    Q_OBJECT

  public:
    explicit YourModelPage(QWidget *parent = nullptr);
    ~YourModelPage() override;

    // Takes path as the model to estimate; loads nothing (loading runs its code) until start().
    void openModel(const QString &path);
    QString modelPath() const;
    // Asks for a .pt file and opens it.
    void openModelDialog();

    // Starts an estimate with the form's values; false (the error line says why) when
    // the form does not describe one, or a run is still going on.
    bool start();
    // The estimate the form describes now, the one start() runs; throws io::InputError,
    // one line, when it describes none.
    workflows::EstimateSettings estimateSettings() const;
    // `gpumem estimate` with these settings (the table of every GPU profile aside).
    RunCommand runCommand() const override;
    // Cancels the running estimate: it stops after the traced step under way, and
    // nothing of it is shown.
    void cancel();
    // True from start() until the page has taken the run's end, a cancelled run included.
    bool isRunning() const;

    // The last estimate shown, or null.
    const estimate::EstimateResult *result() const;
    // The error line (empty when there is none) and the status line.
    QString errorText() const;
    QString statusText() const;

  Q_SIGNALS:
    // A run's outcome is on show: its estimates, or an error.
    void estimateFinished(bool succeeded);
    // The user cancelled; the running estimate stops and shows nothing.
    void estimateCancelled();

  protected:
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

  private:
    // What a run hands the page: its estimate, or why there is none.
    struct Outcome
    {
        std::shared_ptr<const workflows::EstimateOutcome> estimate; // null on error or cancel
        // A language model's recipes compared and memory against the sequence length; null for a TorchScript file.
        std::shared_ptr<const std::vector<workflows::RecipeEstimate>> recipes;
        std::shared_ptr<const std::vector<workflows::SequencePoint>> sequence;
        std::int64_t sequenceLength = 0; // a language model's, as the form gave it
        QString modelPath;
        std::int64_t timelineBatch = 0;
        bool cancelled = false;
        QString error;
    };

    QWidget *buildFormPane();
    QWidget *buildResults();
    QWidget *buildProfileBox();
    void finishRun();
    void showError(const QString &message);
    void showResult();
    void fitTableHeight();
    // Sizes the form's scroll area to the form's width in the current font.
    void fitFormPane();
    // Fills the GPU table for the batch chosen in its combo box.
    void showProfiles();
    void updateRunning();
    void showElapsed();
    // Shows the language model's charts' tabs only while the form describes a language model.
    void showLanguageModelTabs(bool languageModel);
    // The language model's charts of the outcome on show, or why there are none.
    void showLanguageModelCharts();

    EstimateForm *mForm;
    ProgressBridge *mBridge;
    QPushButton *mEstimate;
    QPushButton *mCancel;
    QProgressBar *mBusy;
    QLabel *mStatus;
    QLabel *mError;
    QLabel *mSummary;
    QTableWidget *mEstimates;
    QTabWidget *mCharts;
    QScrollArea *mFormScroller = nullptr; // the form, its buttons and status
    QCustomPlot *mMemoryChart;
    QCustomPlot *mBreakdownChart;
    QCustomPlot *mTimelineChart;
    QCustomPlot *mSequenceChart;
    QCustomPlot *mRecipeChart;
    QComboBox *mProfileBatch;
    QTableWidget *mProfiles;
    QTimer *mElapsedTicker;
    QElapsedTimer mElapsed;
    bool mRunning = false;   // from start() until finishRun(), which a cancel does not shorten
    bool mCancelled = false; // the running estimate was asked to stop
    Outcome mShown;          // the outcome on show: its result and the installed profiles
    BackgroundJob<Outcome> mJob{this, &YourModelPage::finishRun};
};

} // namespace gpumem::ui
