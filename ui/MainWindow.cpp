#include "ui/MainWindow.h"

#include "runtime/LibraryVersions.h"

#include <QApplication>
#include <QCloseEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

namespace gpumem::ui {

namespace {
const char *const geometryKey = "mainWindow/geometry";
const char *const stateKey = "mainWindow/state";
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("GPU Memory Workbench"));
    setObjectName(QStringLiteral("MainWindow"));
    auto *welcome = new QLabel(tr("Open a CSV file of deep-learning jobs to begin."), this);
    welcome->setAlignment(Qt::AlignCenter);
    setCentralWidget(welcome);
    createMenus();
    statusBar()->showMessage(tr("Ready"));

    QSettings settings;
    if (!restoreGeometry(settings.value(geometryKey).toByteArray()))
        resize(1280, 800);
    restoreState(settings.value(stateKey).toByteArray());
}

void MainWindow::createMenus()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setObjectName(QStringLiteral("quitAction"));

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *about = helpMenu->addAction(tr("&About GPU Memory Workbench"), this, &MainWindow::showAbout);
    about->setObjectName(QStringLiteral("aboutAction"));
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

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(geometryKey, saveGeometry());
    settings.setValue(stateKey, saveState());
    event->accept();
}

} // namespace gpumem::ui
