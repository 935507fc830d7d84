// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's menus: File (with the recent files and built-in datasets), Edit (copy the page's
// run as a command), View (zoom, chart full window, help panel) and Help (with About).
#include "runtime/LibraryVersions.h"
#include "ui/app/BuiltInDatasets.h"
#include "ui/app/MainWindow.h"
#include "ui/app/RunCommand.h"
#include "ui/app/WorkbenchState.h"
#include "ui/pages/ComparePage.h"
#include "ui/pages/TrainingPage.h"
#include "ui/pages/YourModelPage.h"

#include <QAction>
#include <QClipboard>
#include <QDockWidget>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace gpumem::ui {

namespace {
const char *const recentKey = "data/recentFiles";
constexpr int recentLimit = 8;
} // namespace

void MainWindow::createMenus()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *open = fileMenu->addAction(tr("&Open data…"), this, &MainWindow::openDataDialog);
    open->setShortcut(QKeySequence::Open);
    open->setObjectName(QStringLiteral("openAction"));
    open->setToolTip(tr("Open a CSV file of measured jobs"));
    mRecentMenu = fileMenu->addMenu(tr("Open &recent"));
    mRecentMenu->setObjectName(QStringLiteral("recentMenu"));
    mDatasetMenu = fileMenu->addMenu(tr("&Built-in datasets"));
    mDatasetMenu->setObjectName(QStringLiteral("datasetMenu"));
    connect(mDatasetMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildDatasetMenu);
    QAction *openModel = fileMenu->addAction(tr("Open your &model (TorchScript)…"), this, [this] {
        showPage(mYourModelPage);
        mYourModelPage->openModelDialog();
        updateCopyCommand();
    });
    openModel->setObjectName(QStringLiteral("openYourModelAction"));
    openModel->setToolTip(tr("Open a .pt file on the Your model page to estimate its GPU training memory"));
    fileMenu->addSeparator();
    QAction *openProject = fileMenu->addAction(tr("Open &project…"), this, &MainWindow::openProjectDialog);
    openProject->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openProject->setObjectName(QStringLiteral("openProjectAction"));
    QAction *save = fileMenu->addAction(tr("&Save project"), this, &MainWindow::saveProjectOrAsk);
    save->setShortcut(QKeySequence::Save);
    save->setObjectName(QStringLiteral("saveProjectAction"));
    QAction *saveAs = fileMenu->addAction(tr("Save project &as…"), this, &MainWindow::saveProjectAs);
    saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    saveAs->setObjectName(QStringLiteral("saveProjectAsAction"));
    fileMenu->addSeparator();
    QAction *pdf =
        fileMenu->addAction(tr("Export comparison as &PDF…"), this, [this] { exportReport(QStringLiteral("pdf")); });
    pdf->setObjectName(QStringLiteral("exportPdfAction"));
    QAction *html =
        fileMenu->addAction(tr("Export comparison as &HTML…"), this, [this] { exportReport(QStringLiteral("html")); });
    html->setObjectName(QStringLiteral("exportHtmlAction"));
    fileMenu->addSeparator();
    QAction *quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setObjectName(QStringLiteral("quitAction"));
    rebuildRecentMenu();

    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    mCopyCommand = editMenu->addAction(tr("Copy as &command"), this, &MainWindow::copyCommand);
    mCopyCommand->setObjectName(QStringLiteral("copyCommandAction"));
    mCopyCommand->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    // The page's data, form or run may have changed since the menu was last shown.
    connect(editMenu, &QMenu::aboutToShow, this, &MainWindow::updateCopyCommand);
    connect(mPages, &QTabWidget::currentChanged, this, &MainWindow::updateCopyCommand);
    for (const auto signal : {&WorkbenchState::tableChanged, &WorkbenchState::rolesChanged})
        connect(mState, signal, this, &MainWindow::updateCopyCommand);
    connect(mYourModelPage, &YourModelPage::estimateFinished, this, &MainWindow::updateCopyCommand);
    updateCopyCommand();

    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *zoomIn = viewMenu->addAction(tr("Zoom &in"), this, &MainWindow::zoomIn);
    zoomIn->setObjectName(QStringLiteral("zoomInAction"));
    // Ctrl+= too: on most keyboards + needs Shift, and = shares its key.
    zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    zoomIn->setToolTip(tr("Enlarge every text and chart line one step (up to 200 %); remembered across restarts"));
    QAction *zoomOut = viewMenu->addAction(tr("Zoom &out"), this, &MainWindow::zoomOut);
    zoomOut->setObjectName(QStringLiteral("zoomOutAction"));
    zoomOut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus));
    zoomOut->setToolTip(tr("Shrink every text and chart line one step (down to 100 %)"));
    QAction *resetZoom = viewMenu->addAction(tr("&Reset zoom"), this, &MainWindow::resetZoom);
    resetZoom->setObjectName(QStringLiteral("resetZoomAction"));
    resetZoom->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *large = viewMenu->addAction(tr("&Large font (presentation, 150 %)"));
    large->setObjectName(QStringLiteral("largeFontAction"));
    large->setCheckable(true);
    large->setToolTip(tr("Enlarge every text for a projector: the 150 % zoom step; remembered across restarts"));
    connect(large, &QAction::toggled, this, &MainWindow::setLargeFont);
    viewMenu->addSeparator();
    QAction *fullWindow = viewMenu->addAction(tr("&Chart full window"), this, &MainWindow::showChartFullWindow);
    fullWindow->setObjectName(QStringLiteral("chartFullWindowAction"));
    fullWindow->setShortcut(QKeySequence(Qt::Key_F11));
    fullWindow->setToolTip(
        tr("Show the chart under the mouse (or the page's largest) alone, full screen; Esc returns"));
    viewMenu->addAction(mHelpDock->toggleViewAction());

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *help = helpMenu->addAction(tr("&Help for this page"), this, &MainWindow::showHelp);
    help->setShortcut(QKeySequence::HelpContents);
    help->setObjectName(QStringLiteral("helpAction"));
    QAction *demo = helpMenu->addAction(tr("&Demo: train live on a built-in dataset"), this, &MainWindow::runDemo);
    demo->setObjectName(QStringLiteral("demoAction"));
    demo->setToolTip(tr("Loads a built-in dataset, picks the quick preset and trains it live (under a minute)"));
    helpMenu->addSeparator();
    QAction *about = helpMenu->addAction(tr("&About GPU Memory Workbench"), this, &MainWindow::showAbout);
    about->setObjectName(QStringLiteral("aboutAction"));
    for (QMenu *menu : {fileMenu, editMenu, viewMenu, helpMenu})
        menu->setToolTipsVisible(true);
}

void MainWindow::updateCopyCommand()
{
    const auto *source = dynamic_cast<const RunCommandSource *>(currentPage());
    const RunCommand command = source ? source->runCommand() : RunCommand{};
    mCopyCommand->setEnabled(!command.line.isEmpty());
    if (!source)
        mCopyCommand->setToolTip(tr("This page runs nothing of its own: the Training, Compare and Your model pages "
                                    "copy the gpumem command that repeats their run"));
    else if (command.line.isEmpty())
        mCopyCommand->setToolTip(command.whyNone);
    else
        mCopyCommand->setToolTip(tr("Copy the gpumem command that repeats this page's run, to script it or run it on "
                                    "a cluster"));
}

void MainWindow::copyCommand()
{
    const auto *source = dynamic_cast<const RunCommandSource *>(currentPage());
    const RunCommand command = source ? source->runCommand() : RunCommand{};
    if (command.line.isEmpty()) {
        // The form changed since the action was enabled: say why there is nothing to copy.
        updateCopyCommand();
        statusBar()->showMessage(mCopyCommand->toolTip(), 8000);
        return;
    }
    QGuiApplication::clipboard()->setText(command.line);
    statusBar()->showMessage(tr("Copied the command: %1").arg(command.line), 8000);
}

void MainWindow::rebuildRecentMenu()
{
    mRecentMenu->clear();
    const QStringList recent = QSettings().value(recentKey).toStringList();
    for (const QString &path : recent)
        mRecentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openFileAfterAsking(path); })
            ->setToolTip(path);
    mRecentMenu->setEnabled(!recent.isEmpty());
    mRecentMenu->setToolTipsVisible(true);
}

void MainWindow::rebuildDatasetMenu()
{
    mDatasetMenu->clear();
    const QStringList datasets = builtInDatasets();
    for (const QString &path : datasets)
        mDatasetMenu->addAction(datasetName(path), this, [this, path] { openFileAfterAsking(path); })->setToolTip(path);
    if (datasets.isEmpty())
        mDatasetMenu->addAction(tr("(none installed)"))->setEnabled(false);
    mDatasetMenu->setToolTipsVisible(true);
}

void MainWindow::rememberRecent(const QString &path)
{
    QSettings settings;
    QStringList recent = settings.value(recentKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > recentLimit)
        recent.removeLast();
    settings.setValue(recentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::showAbout()
{
    QString versions;
    for (const auto &[name, version] : runtime::libraryVersions().entries())
        versions +=
            QStringLiteral("<tr><td>%1</td><td>%2</td></tr>")
                .arg(QString::fromStdString(name).toHtmlEscaped(), QString::fromStdString(version).toHtmlEscaped());
    QMessageBox::about(this, tr("About GPU Memory Workbench"),
                       tr("<p>Predicts how much GPU memory a deep-learning job will need and compares "
                          "a BiGRU-optimised Transformer with tree-based baselines.</p>") +
                           QStringLiteral("<table>%1</table>").arg(versions));
}

} // namespace gpumem::ui
