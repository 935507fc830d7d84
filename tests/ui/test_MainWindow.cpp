// SPDX-License-Identifier: GPL-3.0-or-later
#include "UiTestSupport.h"
#include "models/NeuralNetworkRegressor.h"
#include "ui/app/BuiltInDatasets.h"
#include "ui/app/MainWindow.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/LossPlot.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/models/RunsTableModel.h"
#include "ui/pages/DataPage.h"
#include "ui/pages/PredictPage.h"
#include "ui/pages/RunsPage.h"
#include "ui/pages/TrainingPage.h"
#include "ui/pages/YourModelPage.h"
#include "ui/widgets/RunModelBox.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

namespace {

// Answers the window's unsaved-work question with a button whenever it is on screen, from
// the question's own event loop, and counts the questions: a test never blocks on it.
class UnsavedWorkAnswers : public QObject
{
  public:
    explicit UnsavedWorkAnswers(QMessageBox::StandardButton button)
        : mButton(button)
    {
        connect(&mPoll, &QTimer::timeout, this, [this] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QStringLiteral("unsavedWorkBox") || box == mAnswered)
                return;
            mAnswered = box;
            ++mCount;
            mText = box->text() + QLatin1Char('\n') + box->informativeText();
            box->button(mButton)->click();
        });
        mPoll.start(10);
    }
    void setAnswer(QMessageBox::StandardButton button) { mButton = button; }
    int count() const { return mCount; }
    const QString &text() const { return mText; }

  private:
    QTimer mPoll;
    QMessageBox::StandardButton mButton;
    QPointer<QMessageBox> mAnswered;
    int mCount = 0;
    QString mText;
};

// A datasets folder whose demo.csv is a copy of jobs_training.csv, which Help > Demo opens
// while the folder lives (GPUMEM_DATASET_DIR names it until then).
struct DemoDatasets
{
    QTemporaryDir folder;
    QString demo = folder.filePath(QStringLiteral("demo.csv"));
    bool copied = QFile::copy(gpumem::tests::testDataPath("jobs_training.csv"), demo);

    DemoDatasets() { qputenv("GPUMEM_DATASET_DIR", folder.path().toLocal8Bit()); }
    ~DemoDatasets() { qunsetenv("GPUMEM_DATASET_DIR"); }
    DemoDatasets(const DemoDatasets &) = delete;
    DemoDatasets &operator=(const DemoDatasets &) = delete;
};

// A main window on the demo datasets, and a spy on its Data page's loads.
struct DemoWindow
{
    DemoDatasets datasets;
    gpumem::ui::MainWindow window;
    QSignalSpy loaded{window.dataPage(), &gpumem::ui::DataPage::loadFinished};
};

// Shows window and opens tests/data/jobs.csv in it as File > Open does; returns whether
// the load finished, the first that loaded (a spy on the Data page's loadFinished) counts.
bool showWithJobs(gpumem::ui::MainWindow &window, const QSignalSpy &loaded)
{
    window.show();
    window.openData(gpumem::tests::testDataPath("jobs.csv"));
    return QTest::qWaitFor([&] { return loaded.count() == 1; }, 20000);
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

  private:
    // The first half of each test that reopens a project: opens data in a window of its
    // own, waits up to loadTimeout ms for it to load, lets prepare change what the window
    // holds and saves the project. A failed check ends the helper only, so callers return
    // on QTest::currentTestFailed().
    static void saveProjectOfData(const QString &data, const QString &project, int loadTimeout,
                                  const std::function<void(gpumem::ui::MainWindow &)> &prepare = {})
    {
        gpumem::ui::MainWindow window;
        QSignalSpy loaded(window.dataPage(), &gpumem::ui::DataPage::loadFinished);
        window.openData(data);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, loadTimeout);
        if (prepare)
            prepare(window);
        QVERIFY(window.saveProject(project));
    }

  private Q_SLOTS:
    void initTestCase() { gpumem::tests::isolateSettings("test_MainWindow"); }

    void showsTitleMenusAndPages()
    {
        gpumem::ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.windowTitle(), QStringLiteral("GPU Memory Workbench"));
        QStringList menus;
        for (QAction *action : window.menuBar()->actions())
            menus << action->text();
        QCOMPARE(menus, QStringList({QStringLiteral("&File"), QStringLiteral("&Edit"), QStringLiteral("&View"),
                                     QStringLiteral("&Help")}));
        const auto shortcut = [&window](const char *name) {
            auto *action = window.findChild<QAction *>(QString::fromLatin1(name));
            return action ? action->shortcut() : QKeySequence();
        };
        QCOMPARE(shortcut("quitAction"), QKeySequence(QKeySequence::Quit));
        QCOMPARE(shortcut("openAction"), QKeySequence(QKeySequence::Open));
        QCOMPARE(shortcut("saveProjectAction"), QKeySequence(QKeySequence::Save));
        QCOMPARE(shortcut("saveProjectAsAction"), QKeySequence(QStringLiteral("Ctrl+Shift+S")));
        QCOMPARE(shortcut("copyCommandAction"), QKeySequence(QStringLiteral("Ctrl+Shift+C")));
        QCOMPARE(shortcut("helpAction"), QKeySequence(QKeySequence::HelpContents));
        QCOMPARE(window.pages()->count(), 7); // Data, Model, Training, Compare, Predict, Runs, Your model
    }

    void remembersGeometryPageAndFontAcrossRestarts()
    {
        const QFont normal = QApplication::font();
        {
            gpumem::ui::MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resize(900, 650);
            window.pages()->setCurrentIndex(2);
            auto *plot = window.findChild<QCustomPlot *>();
            QVERIFY(plot);
            const double tickSize = plot->xAxis->tickLabelFont().pointSizeF();
            const double labelSize = plot->xAxis->labelFont().pointSizeF();
            window.setLargeFont(true);
            QVERIFY(QApplication::font().pointSizeF() > normal.pointSizeF());
            // Charts follow the large font too: their axis labels and tick numbers grow by the same factor.
            QCOMPARE(plot->xAxis->labelFont().pointSizeF(), normal.pointSizeF() * 1.5);
            QVERIFY(plot->xAxis->tickLabelFont().pointSizeF() > tickSize);
            QVERIFY(plot->xAxis->labelFont().pointSizeF() > labelSize);
            window.close();
        }
        {
            gpumem::ui::MainWindow reopened;
            QCOMPARE(reopened.size(), QSize(900, 650));
            QCOMPARE(reopened.pages()->currentIndex(), 2);
            QVERIFY(reopened.isLargeFont());
            QCOMPARE(QApplication::font().pointSizeF(), normal.pointSizeF() * 1.5);
            reopened.setLargeFont(false);
            QCOMPARE(QApplication::font().pointSizeF(), normal.pointSizeF());
            reopened.close();
        }
    }

    void helpPanelExplainsTheCurrentPage()
    {
        gpumem::ui::MainWindow window;
        window.show();
        window.pages()->setCurrentIndex(3);
        window.findChild<QAction *>(QStringLiteral("helpAction"))->trigger();
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("helpDock"));
        QVERIFY(dock->isVisible());
        const QString help = window.findChild<QTextBrowser *>(QStringLiteral("helpBrowser"))->toPlainText();
        QVERIFY(help.contains(QStringLiteral("under-prediction rate")));
        window.pages()->setCurrentIndex(0);
        QVERIFY(window.findChild<QTextBrowser *>(QStringLiteral("helpBrowser"))
                    ->toPlainText()
                    .startsWith(QStringLiteral("Data")));
    }

    void opensATorchScriptModelOnTheYourModelPage()
    {
        gpumem::ui::MainWindow window;
        window.show();
        window.pages()->setCurrentIndex(0);
        QVERIFY(window.findChild<QAction *>(QStringLiteral("openYourModelAction")));
        // Opening only takes the path: loading a TorchScript file runs its code, so it waits for Estimate.
        const QString model = QStringLiteral("/nonexistent/resnet50.pt");
        window.openFile(model);
        QCOMPARE(window.currentPage(), static_cast<QWidget *>(window.yourModelPage()));
        QCOMPARE(window.yourModelPage()->modelPath(), model);
        QVERIFY(!window.yourModelPage()->isRunning());
        window.findChild<QAction *>(QStringLiteral("helpAction"))->trigger();
        QVERIFY(window.findChild<QTextBrowser *>(QStringLiteral("helpBrowser"))
                    ->toPlainText()
                    .startsWith(QStringLiteral("Your model")));
    }

    void demoLoadsABuiltInDatasetAndTrains()
    {
        const DemoDatasets datasets;
        QVERIFY(datasets.copied);
        QCOMPARE(gpumem::ui::builtInDatasets(), QStringList{datasets.demo});
        gpumem::ui::MainWindow window;
        window.show();
        QSignalSpy finished(window.trainingPage(), &gpumem::ui::TrainingPage::trainingFinished);
        window.findChild<QAction *>(QStringLiteral("demoAction"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY(finished.at(0).at(0).toBool());
        QCOMPARE(window.state()->presetName(), QStringLiteral("quick"));
        QCOMPARE(window.currentPage(), static_cast<QWidget *>(window.trainingPage()));
        // The training is kept as a run on the Runs page.
        QCOMPARE(window.state()->runs().size(), std::size_t{1});
        // The demo holds out a validation share (the quick preset's 15%, 12 of the 80 rows): every
        // epoch has a validation error, and the best epoch is the one of the lowest validation
        // loss, whichever that is, not the last by default.
        const gpumem::runs::RunRecord &run = window.state()->runs().front();
        QCOMPARE(run.validationRows, std::size_t{12});
        QCOMPARE(run.epochs.size(), std::size_t{40});
        int lowest = 0;
        double lowestLoss = std::numeric_limits<double>::infinity();
        for (const auto &epoch : run.epochs) {
            QVERIFY(std::isfinite(epoch.validationLoss));
            QVERIFY(std::isfinite(epoch.validationRmse) && epoch.validationRmse > 0.0);
            if (epoch.validationLoss < lowestLoss) {
                lowestLoss = epoch.validationLoss;
                lowest = epoch.epoch;
            }
        }
        QCOMPARE(run.bestEpoch, lowest);
        QVERIFY(window.trainingPage()->statusText().contains(QStringLiteral("best epoch %1").arg(lowest)));
        QCPGraph *validationCurve = nullptr;
        QCustomPlot *errors = window.trainingPage()->plot()->lossChart();
        for (int graph = 0; graph < errors->graphCount(); ++graph)
            if (errors->graph(graph)->name() == QStringLiteral("validation RMSE"))
                validationCurve = errors->graph(graph);
        QVERIFY(validationCurve);
        QCOMPARE(validationCurve->dataCount(), 40);
        QCOMPARE(window.runsPage()->model()->rowCount(), 1);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("*demo.csv"))); // not saved as a project yet
        // The loaded file is now among the recent files.
        QCOMPARE(QSettings().value(QStringLiteral("data/recentFiles")).toStringList().value(0), datasets.demo);
    }

    void savesAndOpensProjects()
    {
        QTemporaryDir directory;
        const QString project = directory.filePath(QStringLiteral("p.gpumem.json"));
        saveProjectOfData(gpumem::tests::testDataPath("jobs.csv"), project, 20000, [](gpumem::ui::MainWindow &window) {
            window.state()->setRole(1, gpumem::data::ColumnRole::Ignored);
        });
        if (QTest::currentTestFailed())
            return;
        gpumem::ui::MainWindow window;
        QSignalSpy opened(&window, &gpumem::ui::MainWindow::projectLoaded);
        window.openFile(project); // as `gpumem-workbench p.gpumem.json` and a drop on the window do
        // The project and its data load in a worker: the window returns at once, with nothing changed yet.
        QVERIFY(!window.state()->table());
        QVERIFY(opened.wait(20000));
        QVERIFY(opened.at(0).at(0).toBool());
        QCOMPARE(window.state()->roles()[1], gpumem::data::ColumnRole::Ignored);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("p.gpumem.json")));
        // Save adds the ending a project needs when the name lacks it.
        QVERIFY(window.saveProject(directory.filePath(QStringLiteral("second"))));
        QVERIFY(QFile::exists(directory.filePath(QStringLiteral("second.gpumem.json"))));
    }

    // Issue 25: after a project was reopened, the Predict page could use only a model trained since.
    void aReopenedProjectsRunModelPredicts()
    {
        QTemporaryDir directory;
        const QString project = directory.filePath(QStringLiteral("runs.gpumem.json"));
        saveProjectOfData(
            gpumem::tests::testDataPath("jobs_training.csv"), project, 20000, [](gpumem::ui::MainWindow &window) {
                std::vector<std::string> warnings;
                const auto dataset = window.state()->buildDataset(warnings);
                auto model =
                    std::make_shared<gpumem::models::NeuralNetworkRegressor>(gpumem::tests::quickHyperparameters(2));
                std::vector<Eigen::Index> rows(dataset->rowCount());
                std::iota(rows.begin(), rows.end(), Eigen::Index{0});
                model->fit(*dataset, rows);
                gpumem::runs::RunRecord run;
                run.name = "first run";
                window.state()->addRun(run, model);
            });
        if (QTest::currentTestFailed())
            return;
        gpumem::ui::MainWindow window;
        QSignalSpy opened(&window, &gpumem::ui::MainWindow::projectLoaded);
        QVERIFY(window.loadProject(project));
        QVERIFY(opened.wait(20000));
        QVERIFY(opened.at(0).at(0).toBool());
        QVERIFY(!window.state()->runModel(0)); // on disk only, beside the project
        auto *runModels = window.predictPage()->findChild<gpumem::ui::RunModelBox *>(QStringLiteral("runModelBox"));
        QVERIFY(runModels);
        QVERIFY(runModels->isEnabled());
        QVERIFY(runModels->itemText(1).startsWith(QStringLiteral("first run")));
        QVERIFY(!window.predictPage()->hasModel());
        QVERIFY(runModels->chooseRun(0));
        QVERIFY(window.predictPage()->hasModel());
        QVERIFY(std::isfinite(window.predictPage()->currentPrediction()));
    }

    void cancellingAProjectOpenChangesNothing()
    {
        QTemporaryDir directory;
        const QString data = directory.filePath(QStringLiteral("big.csv"));
        QVERIFY(gpumem::tests::writeLargeJobsCsv(data, 300000));
        const QString project = directory.filePath(QStringLiteral("big.gpumem.json"));
        saveProjectOfData(data, project, 60000);
        if (QTest::currentTestFailed())
            return;
        gpumem::ui::MainWindow window;
        window.show();
        QSignalSpy opened(&window, &gpumem::ui::MainWindow::projectLoaded);
        QVERIFY(window.loadProject(project));
        auto *progress = window.findChild<QWidget *>(QStringLiteral("projectProgress"));
        auto *cancel = progress ? progress->findChild<QPushButton *>(QStringLiteral("cancelOperation")) : nullptr;
        QVERIFY(cancel && cancel->isVisible());
        cancel->click();
        QVERIFY(opened.wait(60000));
        QCOMPARE(opened.at(0).at(0).toBool(), false);
        QVERIFY(!window.state()->table());
        QVERIFY(!progress->isVisible());
        QVERIFY(!window.windowTitle().startsWith(QStringLiteral("big.gpumem.json")));
        // The next open is not stopped by the last one's cancel.
        QVERIFY(window.loadProject(project));
        QVERIFY(opened.wait(60000));
        QCOMPARE(opened.at(1).at(0).toBool(), true);
        QCOMPARE(window.state()->table()->rowCount(), std::size_t{300000});
    }

    void asksBeforeQuittingWithUnsavedWork()
    {
        gpumem::ui::MainWindow window;
        QSignalSpy loaded(window.dataPage(), &gpumem::ui::DataPage::loadFinished);
        QVERIFY(showWithJobs(window, loaded));
        QVERIFY(window.windowTitle().startsWith(QLatin1Char('*')));

        // Answers the question the window asks with button, once it is on screen.
        const auto answer = [](QMessageBox::StandardButton button) {
            QTimer::singleShot(0, [button] {
                auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                QVERIFY(box);
                QCOMPARE(box->objectName(), QStringLiteral("unsavedWorkBox"));
                QVERIFY(box->informativeText().contains(QStringLiteral("the project")));
                box->button(button)->click();
            });
        };
        answer(QMessageBox::Cancel);
        QVERIFY(!window.close());
        QVERIFY(window.isVisible());
        // Opening another project asks the same before anything is replaced; cancelled, nothing changes.
        auto *openProject = window.findChild<QAction *>(QStringLiteral("openProjectAction"));
        QVERIFY(openProject);
        answer(QMessageBox::Cancel);
        openProject->trigger();
        QVERIFY(window.state()->table());
        QVERIFY(window.windowTitle().startsWith(QLatin1Char('*')));
        answer(QMessageBox::Discard);
        QVERIFY(window.close());
    }

    // Bug: Help > Demo replaced unsaved data, roles and models without asking, while Quit asked.
    void demoAsksBeforeReplacingUnsavedWork()
    {
        DemoWindow demo;
        auto &[datasets, window, loaded] = demo;
        QVERIFY(datasets.copied);
        QVERIFY(showWithJobs(window, loaded));
        window.state()->setRole(1, gpumem::data::ColumnRole::Ignored); // work the user has not saved
        const auto table = window.state()->table();
        const auto roles = window.state()->roles();
        auto *demoAction = window.findChild<QAction *>(QStringLiteral("demoAction"));
        QVERIFY(demoAction);

        UnsavedWorkAnswers answers(QMessageBox::Cancel);
        demoAction->trigger();
        QCOMPARE(answers.count(), 1);
        QVERIFY(answers.text().contains(QStringLiteral("the project")));
        QTest::qWait(50);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(window.state()->table(), table);
        QVERIFY(window.state()->roles() == roles);
        QCOMPARE(window.state()->dataPath(), gpumem::tests::testDataPath("jobs.csv"));
        QVERIFY(window.windowTitle().startsWith(QLatin1Char('*')));

        answers.setAnswer(QMessageBox::Discard);
        QSignalSpy finished(window.trainingPage(), &gpumem::ui::TrainingPage::trainingFinished);
        demoAction->trigger();
        QCOMPARE(answers.count(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 20000);
        QCOMPARE(window.state()->dataPath(), datasets.demo);
        QVERIFY(window.state()->table() != table);
        window.trainingPage()->stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    }

    void demoAsksNothingWhenTheWorkIsSaved()
    {
        DemoWindow demo;
        auto &[datasets, window, loaded] = demo;
        QVERIFY(datasets.copied);
        QVERIFY(showWithJobs(window, loaded));
        QVERIFY(window.saveProject(datasets.folder.filePath(QStringLiteral("saved.gpumem.json"))));
        QVERIFY(!window.windowTitle().startsWith(QLatin1Char('*')));

        UnsavedWorkAnswers answers(QMessageBox::Cancel); // would keep the old data, had it asked
        QSignalSpy finished(window.trainingPage(), &gpumem::ui::TrainingPage::trainingFinished);
        window.findChild<QAction *>(QStringLiteral("demoAction"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 20000);
        QCOMPARE(answers.count(), 0);
        QCOMPARE(window.state()->dataPath(), datasets.demo);
        window.trainingPage()->stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    }

    // A file dropped on the window asks as Quit does: Cancel keeps everything, Save saves
    // the project before the new data replaces it.
    void droppingAFileAsksBeforeReplacingUnsavedWork()
    {
        QTemporaryDir directory;
        const QString project = directory.filePath(QStringLiteral("dropped.gpumem.json"));
        gpumem::ui::MainWindow window;
        QSignalSpy loaded(window.dataPage(), &gpumem::ui::DataPage::loadFinished);
        QVERIFY(showWithJobs(window, loaded));
        QVERIFY(window.saveProject(project));
        QFile savedFile(project);
        QVERIFY(savedFile.open(QIODevice::ReadOnly));
        const QByteArray saved = savedFile.readAll();
        savedFile.close();
        window.state()->setRole(1, gpumem::data::ColumnRole::Ignored);
        const auto table = window.state()->table();

        const QString other = gpumem::tests::testDataPath("jobs_training.csv");
        const auto drop = [&window, &other] {
            QMimeData mime;
            mime.setUrls({QUrl::fromLocalFile(other)});
            // Qt delivers a drop to the widget that accepted the drag's entry, as a real drag does.
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&window, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent event(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&window, &event);
            QVERIFY(event.isAccepted());
        };
        UnsavedWorkAnswers answers(QMessageBox::Cancel);
        drop();
        QTRY_COMPARE(answers.count(), 1);
        QTest::qWait(50);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(window.state()->table(), table);

        answers.setAnswer(QMessageBox::Save);
        drop();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 20000);
        QCOMPARE(answers.count(), 2);
        QCOMPARE(window.state()->dataPath(), other);
        QVERIFY(savedFile.open(QIODevice::ReadOnly));
        QVERIFY(savedFile.readAll() != saved); // the role change reached the project first
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_MainWindow.moc"
