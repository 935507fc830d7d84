// SPDX-License-Identifier: GPL-3.0-or-later
// The main window's project file and unsaved work: saving and loading a project, and the
// one prompt every action that would replace unsaved work asks.
#include "ui/app/MainWindow.h"

#include "data/LoadCancelled.h"
#include "ui/app/BackgroundTask.h"
#include "ui/app/CancellableProgress.h"
#include "ui/app/ProgressBridge.h"
#include "ui/app/ProjectFile.h"
#include "ui/app/WorkbenchState.h"
#include "ui/pages/RunsPage.h"
#include "ui/pages/TrainingPage.h"
#include "ui/widgets/QtText.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>

namespace gpumem::ui {

bool MainWindow::saveProject(const QString &chosenPath)
{
    const QString path = withProjectSuffix(chosenPath);
    try {
        // The runs' models first, so that the project records where they are.
        saveRunModelsWithProject(path, *mState);
        writeProjectFile(path, *mState);
        // The project keeps the model now, unless it had an upper bound's calibration,
        // which only the Training page's own save writes.
        for (const auto &run : mState->runs())
            if (run.name == mLastTrainingRun && !run.modelFolder.empty() && !mTrainingPage->trainedCalibration())
                mTrainingPage->markModelSaved();
        mProjectPath = path;
        mProjectModified = false;
        updateTitle();
        statusBar()->showMessage(tr("Saved project %1").arg(QFileInfo(path).fileName()), 5000);
        return true;
    } catch (const std::exception &error) {
        QMessageBox::warning(this, tr("Save project"), QString::fromStdString(error.what()));
        return false;
    }
}

MainWindow::~MainWindow()
{
    // The open's worker reports to the progress widget, a child of this window.
    cancelLoadingProject();
    mProjectLoader.waitForFinished();
}

bool MainWindow::loadProject(const QString &path)
{
    if (mProjectLoader.isRunning())
        return false;
    // Read off the GUI thread: a project's data file can take seconds to load and hash.
    mLoadingProjectPath = path;
    statusBar()->showMessage(tr("Opening project %1 …").arg(QFileInfo(path).fileName()));
    setCursor(Qt::BusyCursor);
    // The window waits for the open before it (and the progress widget, its child) goes away.
    ProgressBridge *progress = mProjectProgress->observer();
    mProjectLoader.setFuture(
        runInBackground<ProjectOutcome>([path, progress, control = mProjectProgress->start()](ProjectOutcome &outcome) {
            try {
                outcome.content =
                    std::make_shared<const ProjectContent>(readProjectContent(path, progress, control.get()));
            } catch (const data::LoadCancelled &) {
                outcome.cancelled = true; // not an error: nothing changes
            }
        }));
    return true;
}

void MainWindow::cancelLoadingProject()
{
    if (mProjectLoader.isRunning())
        mProjectProgress->cancel();
}

void MainWindow::finishLoadingProject()
{
    unsetCursor();
    mProjectProgress->finish();
    const ProjectOutcome outcome = mProjectLoader.result();
    const QString path = mLoadingProjectPath;
    if (outcome.cancelled) {
        statusBar()->showMessage(tr("Stopped opening project %1; nothing changed").arg(QFileInfo(path).fileName()),
                                 5000);
        Q_EMIT projectLoaded(false, path);
        return;
    }
    QStringList notes;
    QString error = outcome.error;
    if (outcome.content) {
        try {
            notes = applyProjectContent(*outcome.content, *mState);
        } catch (const std::exception &applyError) {
            error = QString::fromStdString(applyError.what());
        }
    }
    if (!error.isEmpty()) {
        statusBar()->clearMessage();
        QMessageBox::warning(this, tr("Open project"), error);
        Q_EMIT projectLoaded(false, path);
        return;
    }
    mProjectPath = path;
    mProjectModified = false;
    updateTitle();
    statusBar()->showMessage(tr("Opened project %1").arg(QFileInfo(path).fileName()), 5000);
    if (!notes.isEmpty())
        QMessageBox::information(this, tr("Open project"), notes.join(QStringLiteral("\n\n")));
    Q_EMIT projectLoaded(true, path);
}

void MainWindow::openProjectDialog()
{
    // Opening another project replaces the runs, data and model on show, as quitting does.
    if (!confirmDiscardingWork(tr("Open project"), tr("Save your work before opening another project?")))
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), {},
                                                      tr("Workbench projects (*.gpumem.json *.json);;All files (*)"));
    if (!path.isEmpty())
        loadProject(path);
}

void MainWindow::saveProjectAs()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save project"), mProjectPath, tr("Workbench projects (*.gpumem.json)"));
    if (!path.isEmpty())
        saveProject(path);
}

void MainWindow::saveProjectOrAsk()
{
    if (mProjectPath.isEmpty())
        saveProjectAs();
    else
        saveProject(mProjectPath);
}

bool MainWindow::confirmDiscardingWork(const QString &title, const QString &question)
{
    QStringList unsaved;
    if (mProjectModified && mState->table())
        unsaved << tr("the project (data, roles, hyperparameters and comparison)");
    if (mTrainingPage->hasUnsavedModel())
        unsaved << tr("the trained model");
    if (unsaved.isEmpty())
        return true;
    QMessageBox box(QMessageBox::Warning, title, question,
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedWorkBox"));
    box.setInformativeText(tr("Not saved: %1.").arg(unsaved.join(tr("; "))));
    box.setDefaultButton(QMessageBox::Save);
    const int answer = box.exec();
    if (answer == QMessageBox::Discard)
        return true;
    if (answer != QMessageBox::Save)
        return false;
    if (mTrainingPage->hasUnsavedModel() && !mTrainingPage->saveModel())
        return false;
    if (mProjectModified && mState->table()) {
        saveProjectOrAsk();
        return !mProjectModified;
    }
    return true;
}

} // namespace gpumem::ui
