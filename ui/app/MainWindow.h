// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFutureWatcher>
#include <QMainWindow>

#include <memory>

#include <string>

class QAction;
class QDockWidget;
class QMenu;
class QTabWidget;
class QTextBrowser;

namespace gpumem::ui {

class CancellableProgress;
class ChartFullWindow;
class ComparePage;
class DataPage;
class ModelPage;
class PredictPage;
struct ProjectContent;
class RunsPage;
class TrainingPage;
class WorkbenchState;
class YourModelPage;

// The workbench's top-level window: the data, model, training, comparison,
// prediction, runs and "Your model" pages as tabs, the menus (recent files,
// built-in datasets, projects, report export, copy as command, zoom steps, charts full window, help panel, demo)
// and drag-and-drop of CSV files, projects and TorchScript models. Restores its geometry, page and zoom from
// QSettings. The window never grows past its screen: pages scroll instead.
class MainWindow : public QMainWindow
{
    Q_OBJECT

  public:
    explicit MainWindow(QWidget *parent = nullptr);
    // Stops a project open still running and waits for it.
    ~MainWindow() override;

    WorkbenchState *state() const { return mState; }
    DataPage *dataPage() const { return mDataPage; }
    ModelPage *modelPage() const { return mModelPage; }
    TrainingPage *trainingPage() const { return mTrainingPage; }
    ComparePage *comparePage() const { return mComparePage; }
    PredictPage *predictPage() const { return mPredictPage; }
    RunsPage *runsPage() const { return mRunsPage; }
    YourModelPage *yourModelPage() const { return mYourModelPage; }
    // The tabs; each holds its page inside a scroll area (see currentPage and showPage).
    QTabWidget *pages() const { return mPages; }
    // Brings page (one of the pages above) to the front.
    void showPage(QWidget *page);
    // The page on show.
    QWidget *currentPage() const;

    // Loads a CSV file in the background and remembers it among the recent files. Replaces
    // the data without asking: the menus, a drop and the demo ask first (see
    // openFileAfterAsking).
    void openData(const QString &path);
    // Opens a project (a name ending in .gpumem.json), a TorchScript model (.pt) on the
    // Your model page, or a data file, without asking about unsaved work.
    void openFile(const QString &path);
    // Opens path as openFile does, after asking (as Quit does) to save unsaved work when path
    // would replace the data or project; false when the user cancelled and nothing changed.
    bool openFileAfterAsking(const QString &path);
    // Saves the whole experiment as one JSON project file; false (after saying why) on failure.
    bool saveProject(const QString &path);
    // Starts opening a project in the background (the window stays usable while its data
    // loads, with progress and Cancel in the status bar); projectLoaded() tells the
    // outcome. False when another open is still running.
    bool loadProject(const QString &path);
    // Stops the project open in progress, if any; nothing changes.
    void cancelLoadingProject();
    // Loads a built-in dataset with the quick preset and trains it live, after asking (as Quit
    // does) to save unsaved work; nothing changes when the user cancels.
    void runDemo();
    // View ▸ Zoom: every text at percent of the normal font, snapped to a step of zoomSteps, and
    // the charts' lines and markers thickened to match; remembered.
    void setZoom(int percent);
    int zoom() const { return mZoom; }
    void zoomIn();
    void zoomOut();
    void resetZoom();
    // Large font, the presentation mode, is the 150 % zoom step; switching it off returns to 100 %.
    void setLargeFont(bool large);
    bool isLargeFont() const;
    // Shows the chart under the mouse (else the one with focus, else the current page's largest)
    // alone in a full-screen window, as F11 does; false when the page shows no chart.
    bool showChartFullWindow();
    ChartFullWindow *chartFullWindow() const { return mChartFullWindow; }
    // Shows the help panel for the current page.
    void showHelp();

  Q_SIGNALS:
    void projectLoaded(bool succeeded, const QString &path);

  protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

  private:
    void createMenus();
    // Edit ▸ Copy as command: the page on show's `gpumem` command to the clipboard.
    void copyCommand();
    // Enables Copy as command where the page on show has a command, with a tooltip saying why not elsewhere.
    void updateCopyCommand();
    void rebuildRecentMenu();
    void rebuildDatasetMenu();
    void rememberRecent(const QString &path);
    void showAbout();
    void openDataDialog();
    void openProjectDialog();
    void saveProjectAs();
    void saveProjectOrAsk();
    void exportReport(const QString &format);
    void updateHelp();
    void sizeHelpPanel();
    // The zoom remembered in the settings (or the old large-font switch), applied.
    void restoreZoom();
    // Gives every chart that has nothing to show yet a line saying what to do (see EmptyChartHint).
    void hintEmptyCharts();
    QWidget *currentPageAt(int index) const;
    void updateTitle();
    void finishLoadingProject();
    // Asks question (in a box titled title, named "unsavedWorkBox") about unsaved work (the
    // project, a trained model): save it, discard it or cancel; true when the work may be
    // replaced (or the window close). Quit and every action that replaces the data or the
    // project ask through it, and nothing is asked when nothing is unsaved.
    bool confirmDiscardingWork(const QString &title, const QString &question);

    WorkbenchState *mState;
    QTabWidget *mPages;
    DataPage *mDataPage;
    ModelPage *mModelPage;
    TrainingPage *mTrainingPage;
    ComparePage *mComparePage;
    PredictPage *mPredictPage;
    RunsPage *mRunsPage;
    YourModelPage *mYourModelPage;
    std::string mLastTrainingRun; // the name of the run the Training page's model belongs to
    QMenu *mRecentMenu = nullptr;
    QMenu *mDatasetMenu = nullptr;
    QAction *mCopyCommand = nullptr;
    QDockWidget *mHelpDock;
    QTextBrowser *mHelp;
    QString mProjectPath;
    QFont mNormalFont;
    int mZoom = 100; // percent of mNormalFont, one of zoomSteps
    ChartFullWindow *mChartFullWindow;
    bool mDemoPending = false;
    bool mProjectModified = false;
    struct ProjectOutcome
    {
        std::shared_ptr<const ProjectContent> content; // null when reading failed or was cancelled
        QString error;
        bool cancelled = false;
    };
    CancellableProgress *mProjectProgress;
    QFutureWatcher<ProjectOutcome> mProjectLoader;
    QString mLoadingProjectPath; // data, roles, hyperparameters or comparison changed since the last save or open
};

} // namespace gpumem::ui
