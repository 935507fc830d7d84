// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/MainWindow.h"

#include "ui/app/BackgroundTask.h"
#include "ui/app/BuiltInDatasets.h"
#include "ui/app/CancellableProgress.h"
#include "ui/app/HelpText.h"
#include "ui/app/ProgressBridge.h"
#include "ui/app/ProjectFile.h"
#include "ui/app/ReportWriter.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/ChartFullWindow.h"
#include "ui/pages/ComparePage.h"
#include "ui/pages/DataPage.h"
#include "ui/pages/ModelPage.h"
#include "ui/pages/PredictPage.h"
#include "ui/pages/RunsPage.h"
#include "ui/pages/TrainingPage.h"
#include "ui/pages/YourModelPage.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/ScreenFit.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTimer>

namespace gpumem::ui {

namespace {
const char *const geometryKey = "mainWindow/geometry";
const char *const stateKey = "mainWindow/state";
const char *const pageKey = "mainWindow/page";

// What the window opens when dropped on it: data files, projects and TorchScript models.
bool isOpenable(const QUrl &url)
{
    return url.isLocalFile() && (url.toLocalFile().endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive) ||
                                 isProjectPath(url.toLocalFile()) || isModelFilePath(url.toLocalFile()));
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , mState(new WorkbenchState(this))
    , mPages(new QTabWidget(this))
    , mDataPage(new DataPage(mState, this))
    , mModelPage(new ModelPage(mState, this))
    , mTrainingPage(new TrainingPage(mState, this))
    , mComparePage(new ComparePage(mState, this))
    , mPredictPage(new PredictPage(mState, mTrainingPage, this))
    , mRunsPage(new RunsPage(mState, this))
    , mYourModelPage(new YourModelPage(this))
    , mHelpDock(new QDockWidget(tr("Help"), this))
    , mHelp(new QTextBrowser(this))
    , mChartFullWindow(new ChartFullWindow(this))
    , mProjectProgress(new CancellableProgress(tr("Opening the project: loading its data file"), this))
{
    // The font before any large-font mode, kept once per application so a second window starts from it too.
    const char *const normalFontProperty = "gpumemNormalFont";
    if (!qApp->property(normalFontProperty).isValid())
        qApp->setProperty(normalFontProperty, QApplication::font());
    mNormalFont = qApp->property(normalFontProperty).value<QFont>();

    setWindowTitle(tr("GPU Memory Workbench"));
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    mPages->setObjectName(QStringLiteral("pages"));
    // Each page scrolls rather than widen the window past the screen when its content needs more room.
    mPages->addTab(scrollingPage(mDataPage), tr("&1 Data"));
    mPages->addTab(scrollingPage(mModelPage), tr("&2 Model"));
    mPages->addTab(scrollingPage(mTrainingPage), tr("&3 Training"));
    mPages->addTab(scrollingPage(mComparePage), tr("&4 Compare"));
    mPages->addTab(scrollingPage(mPredictPage), tr("&5 Predict"));
    mPages->addTab(scrollingPage(mRunsPage), tr("&6 Runs"));
    mPages->addTab(scrollingPage(mYourModelPage), tr("&7 Your model"));
    mPages->setTabToolTip(0, tr("Load a CSV of measured jobs and choose what each column is"));
    mPages->setTabToolTip(1, tr("Set the network's hyperparameters and see the architecture they build"));
    mPages->setTabToolTip(2, tr("Train the network and watch the loss live"));
    mPages->setTabToolTip(3, tr("Compare models on the same cross-validation folds"));
    mPages->setTabToolTip(4, tr("Predict the memory of new jobs with a saved model"));
    mPages->setTabToolTip(5, tr("Every training run, sortable, with overlaid curves; hyperparameter sweeps"));
    mPages->setTabToolTip(6, tr("Estimate your own PyTorch model's GPU training memory on the CPU"));
    // Every training becomes a run; saving its model records the folder in that run.
    connect(mTrainingPage, &TrainingPage::runRecorded, this, [this](const runs::RunRecord &run) {
        // A run that finished left its model on the Training page; a stopped one left none.
        const bool kept =
            run.stopReason == training::StopReason::Completed || run.stopReason == training::StopReason::EarlyStopped;
        mState->addRun(run, kept ? mTrainingPage->trainedModel() : nullptr);
        mLastTrainingRun = mState->runs().back().name;
    });
    connect(mTrainingPage, &TrainingPage::modelSaved, this, [this](const QString &directory) {
        // By name: a project opened since may have replaced the runs, and then has none of that name or another.
        const auto &runs = mState->runs();
        for (std::size_t index = runs.size(); index-- > 0;)
            if (runs[index].name == mLastTrainingRun && runs[index].modelFolder.empty()) {
                mState->setRunModelFolder(index, coreText(QFileInfo(directory).absoluteFilePath()));
                break;
            }
    });
    setCentralWidget(mPages);

    mHelpDock->setObjectName(QStringLiteral("helpDock"));
    mHelp->setObjectName(QStringLiteral("helpBrowser"));
    mHelp->setOpenExternalLinks(false);
    mHelpDock->setWidget(mHelp);
    mHelpDock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    addDockWidget(Qt::RightDockWidgetArea, mHelpDock);
    mHelpDock->hide();
    connect(mPages, &QTabWidget::currentChanged, this, &MainWindow::updateHelp);
    connect(&mProjectLoader, &QFutureWatcher<ProjectOutcome>::finished, this, &MainWindow::finishLoadingProject);
    mProjectProgress->setObjectName(QStringLiteral("projectProgress"));
    statusBar()->addPermanentWidget(mProjectProgress);

    createMenus();
    hintEmptyCharts();
    // Anything the project file holds that changes makes the project unsaved.
    for (const auto signal :
         {&WorkbenchState::tableChanged, &WorkbenchState::rolesChanged, &WorkbenchState::hyperparametersChanged,
          &WorkbenchState::comparisonChanged, &WorkbenchState::runsChanged})
        connect(mState, signal, this, [this] {
            mProjectModified = true;
            updateTitle();
        });
    statusBar()->showMessage(tr("Ready — open a CSV file (Ctrl+O), drop one on the window, or try Help ▸ Demo"));

    connect(mDataPage, &DataPage::loadFinished, this, [this](bool succeeded, const QString &path) {
        if (succeeded) {
            rememberRecent(path);
            statusBar()->showMessage(tr("Loaded %1").arg(QFileInfo(path).fileName()), 5000);
        } else {
            statusBar()->showMessage(tr("Could not load %1").arg(QFileInfo(path).fileName()), 5000);
        }
        updateTitle();
        if (mDemoPending) {
            mDemoPending = false;
            if (succeeded) {
                showPage(mTrainingPage);
                mTrainingPage->start();
            }
        }
    });

    QSettings settings;
    // A fresh start takes a large window, but never more than the screen holds (a laptop's 1366×768).
    if (!restoreGeometry(settings.value(geometryKey).toByteArray()))
        resize(sizeFittingScreen(this, QSize(1400, 900)));
    restoreState(settings.value(stateKey).toByteArray());
    mPages->setCurrentIndex(std::clamp(settings.value(pageKey, 0).toInt(), 0, mPages->count() - 1));
    restoreZoom();
    updateHelp();
}

void MainWindow::openFile(const QString &path)
{
    if (isProjectPath(path)) {
        loadProject(path);
    } else if (isModelFilePath(path)) {
        showPage(mYourModelPage);
        mYourModelPage->openModel(path);
        updateCopyCommand();
    } else {
        openData(path);
    }
}

bool MainWindow::openFileAfterAsking(const QString &path)
{
    // A TorchScript model only goes to the Your model page: the data and the project stay.
    if (!isModelFilePath(path) &&
        !confirmDiscardingWork(isProjectPath(path) ? tr("Open project") : tr("Open data"),
                               isProjectPath(path) ? tr("Save your work before opening another project?")
                                                   : tr("Save your work before opening another data file?")))
        return false;
    openFile(path);
    return true;
}

void MainWindow::openData(const QString &path)
{
    showPage(mDataPage);
    mDataPage->openFile(path);
}

void MainWindow::openDataDialog()
{
    // Asked before the file dialog, as Open project does: the new file replaces the data, roles and models.
    if (!confirmDiscardingWork(tr("Open data"), tr("Save your work before opening another data file?")))
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open data"), {},
                                                      tr("CSV files (*.csv *.csv.gz *.tsv *.txt);;All files (*)"));
    if (!path.isEmpty())
        openData(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const auto urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), isOpenable))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (isOpenable(url)) {
            event->acceptProposedAction();
            // Asked once the drop is over: a modal question inside the drop would hold the
            // dragging application (a file manager) until it is answered.
            QTimer::singleShot(0, this, [this, path = url.toLocalFile()] { openFileAfterAsking(path); });
            return;
        }
}

void MainWindow::exportReport(const QString &format)
{
    if (!mState->comparison()) {
        QMessageBox::information(this, tr("Export"), tr("Run a comparison on the Compare page first."));
        return;
    }
    const QString filter = format == QStringLiteral("pdf") ? tr("PDF (*.pdf)") : tr("HTML (*.html)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export comparison"), {}, filter);
    if (path.isEmpty())
        return;
    try {
        const ReportContent content = mComparePage->reportContent();
        if (format == QStringLiteral("pdf"))
            writePdfReport(path, content);
        else
            writeHtmlReport(path, content);
        statusBar()->showMessage(tr("Exported %1").arg(QFileInfo(path).fileName()), 5000);
    } catch (const std::exception &error) {
        QMessageBox::warning(this, tr("Export"), QString::fromStdString(error.what()));
    }
}

void MainWindow::runDemo()
{
    const QStringList datasets = builtInDatasets();
    if (datasets.isEmpty()) {
        QMessageBox::information(this, tr("Demo"), tr("No built-in dataset is installed."));
        return;
    }
    // The demo replaces the data, roles and models on show, as opening a file does.
    if (!confirmDiscardingWork(tr("Demo"), tr("Save your work before loading the demo?")))
        return;
    mModelPage->applyPreset(QStringLiteral("quick"));
    mDemoPending = true;
    openData(datasets.front());
}

void MainWindow::showHelp()
{
    updateHelp();
    const bool wasHidden = mHelpDock->isHidden();
    mHelpDock->show();
    mHelpDock->raise();
    sizeHelpPanel();
    // The panel takes its room from the pages, not from beyond the screen's edge.
    if (wasHidden && !mHelpDock->isFloating())
        resizeDocks({mHelpDock}, {std::clamp(width() / 3, mHelp->minimumWidth(), 2 * mHelp->minimumWidth())},
                    Qt::Horizontal);
    QTimer::singleShot(0, this, [this] { keepOnScreen(this); });
}

void MainWindow::sizeHelpPanel()
{
    // Wide enough for a few words a line in the current font, however narrow the window.
    mHelp->setMinimumWidth(QFontMetrics(QApplication::font()).averageCharWidth() * 28);
}

void MainWindow::showPage(QWidget *page)
{
    for (int index = 0; index < mPages->count(); ++index)
        if (currentPageAt(index) == page)
            mPages->setCurrentIndex(index);
}

QWidget *MainWindow::currentPage() const
{
    return currentPageAt(mPages->currentIndex());
}

QWidget *MainWindow::currentPageAt(int index) const
{
    const auto *area = qobject_cast<QScrollArea *>(mPages->widget(index));
    return area ? area->widget() : nullptr;
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    // A geometry remembered on a larger screen comes back inside this one.
    QTimer::singleShot(0, this, [this] { keepOnScreen(this); });
}

void MainWindow::updateHelp()
{
    mHelp->setHtml(pageHelp(mPages->currentIndex()));
}

void MainWindow::updateTitle()
{
    QString title = tr("GPU Memory Workbench");
    if (!mState->dataPath().isEmpty())
        title = QFileInfo(mState->dataPath()).fileName() + QStringLiteral(" — ") + title;
    if (!mProjectPath.isEmpty())
        title = QFileInfo(mProjectPath).fileName() + QStringLiteral(" · ") + title;
    // A leading star marks unsaved work, as editors do.
    setWindowTitle((mProjectModified && mState->table() ? QStringLiteral("*") : QString()) + title);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!confirmDiscardingWork(tr("Quit"), tr("Save your work before quitting?"))) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(geometryKey, saveGeometry());
    settings.setValue(stateKey, saveState());
    settings.setValue(pageKey, mPages->currentIndex());
    event->accept();
}

} // namespace gpumem::ui
