// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/ScreenshotTour.h"

#include "models/NetworkModelName.h"
#include "models/RegressorRegistry.h"
#include "ui/app/MainWindow.h"
#include "ui/app/WorkbenchState.h"
#include "ui/app/ZoomSteps.h"
#include "ui/charts/ChartFullWindow.h"
#include "ui/pages/ComparePage.h"
#include "ui/pages/DataPage.h"
#include "ui/pages/ModelPage.h"
#include "ui/pages/PredictPage.h"
#include "ui/pages/RunsPage.h"
#include "ui/pages/TrainingPage.h"
#include "ui/pages/YourModelPage.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>

#include <utility>
#include <vector>

namespace gpumem::ui {

namespace {
// Time for a page's layout and queued redraws to settle before it is grabbed.
constexpr int settleMilliseconds = 400;
} // namespace

ScreenshotTour::ScreenshotTour(MainWindow *window, QString directory, QString dataPath, QObject *parent)
    : QObject(parent)
    , mWindow(window)
    , mDirectory(std::move(directory))
    , mDataPath(std::move(dataPath))
{
}

void ScreenshotTour::setYourModel(const QString &modelPath, const QString &inputShape)
{
    mYourModelPath = modelPath;
    mYourModelShape = inputShape;
}

void ScreenshotTour::start()
{
    QDir().mkpath(mDirectory);
    // The size of a common laptop screen: nothing may be cut off there.
    mWindow->resize(1366, 768);
    connect(
        mWindow->dataPage(), &DataPage::loadFinished, this,
        [this](bool succeeded) {
            if (!succeeded) {
                save(QStringLiteral("00-error"));
                QApplication::exit(1);
                return;
            }
            // Select the target's row so that the summary shows its statistics.
            const auto target = mWindow->state()->table()->columnIndex(mWindow->state()->targetName());
            if (auto *editor = mWindow->dataPage()->findChild<QTableWidget *>(QStringLiteral("columnEditor"));
                editor && target)
                editor->setCurrentCell(static_cast<int>(*target), 0);
            QTimer::singleShot(settleMilliseconds, this, [this] {
                save(QStringLiteral("01-data"));
                showModel();
            });
        },
        Qt::SingleShotConnection);
    mWindow->openData(mDataPath);
}

void ScreenshotTour::save(const QString &name)
{
    mWindow->grab().save(QDir(mDirectory).filePath(name + QStringLiteral(".png")), "PNG");
}

void ScreenshotTour::showModel()
{
    mWindow->modelPage()->applyPreset(QStringLiteral("quick"));
    mWindow->showPage(mWindow->modelPage());
    QTimer::singleShot(settleMilliseconds, this, [this] {
        save(QStringLiteral("02-model"));
        train();
    });
}

void ScreenshotTour::train()
{
    mWindow->showPage(mWindow->trainingPage());
    connect(
        mWindow->trainingPage(), &TrainingPage::trainingFinished, this,
        [this] {
            QTimer::singleShot(settleMilliseconds, this, [this] {
                save(QStringLiteral("03-training"));
                showRuns();
            });
        },
        Qt::SingleShotConnection);
    mWindow->trainingPage()->start();
}

void ScreenshotTour::showRuns()
{
    // The training just finished is the first run of the session.
    mWindow->showPage(mWindow->runsPage());
    QTimer::singleShot(settleMilliseconds, this, [this] {
        save(QStringLiteral("10-runs"));
        compare();
    });
}

void ScreenshotTour::compare()
{
    // The comparison the workbench is about: the network against the tree ensembles.
    const QStringList compared{QString::fromLatin1(models::kNetworkModelName), QStringLiteral("decision_tree"),
                               QStringLiteral("random_forest"), QStringLiteral("adaboost"), QStringLiteral("xgboost")};
    QStringList models;
    for (const auto &name : models::regressorNames())
        if (compared.contains(QString::fromStdString(name)))
            models << QString::fromStdString(name);
    ComparePage *page = mWindow->comparePage();
    page->setSelectedModels(models);
    page->setFolds(3);
    mWindow->showPage(page);
    connect(
        page, &ComparePage::comparisonFinished, this,
        [this] { QTimer::singleShot(settleMilliseconds, this, [this] { showComparison(); }); },
        Qt::SingleShotConnection);
    if (!page->start())
        QApplication::exit(1);
}

void ScreenshotTour::showComparison()
{
    auto *results = mWindow->comparePage()->findChild<QTabWidget *>(QStringLiteral("compareResults"));
    // The worst under-predictions are the last tab; the out-of-memory risk tab before it is
    // empty without a calibrated bound, so it is left out.
    const std::vector<std::pair<int, QString>> shots{{0, QStringLiteral("04-compare-metrics")},
                                                     {1, QStringLiteral("05-compare-scatter")},
                                                     {2, QStringLiteral("06-compare-residuals")},
                                                     {results->count() - 1, QStringLiteral("07-compare-worst")}};
    // One tab per step, each given time to lay out its charts before the grab.
    for (std::size_t step = 0; step < shots.size(); ++step)
        QTimer::singleShot(static_cast<int>(step) * settleMilliseconds * 2, this, [this, results, step, shots] {
            results->setCurrentIndex(shots[step].first);
            QTimer::singleShot(settleMilliseconds, this, [this, shots, step] {
                save(shots[step].second);
                if (step + 1 == shots.size())
                    predict();
            });
        });
}

void ScreenshotTour::predict()
{
    mWindow->showPage(mWindow->predictPage());
    if (mWindow->trainingPage()->trainedModel())
        mWindow->predictPage()->setModel(
            {mWindow->trainingPage()->trainedModel(), mWindow->trainingPage()->trainedCalibration()},
            tr("trained in this session"));
    // Predict the shown file into a scratch file, so that the preview table is filled too.
    const QString output = QDir(mDirectory).filePath(QStringLiteral(".predictions.csv"));
    connect(
        mWindow->predictPage(), &PredictPage::predictionFinished, this,
        [this, output] {
            QTimer::singleShot(settleMilliseconds, this, [this, output] {
                QFile::remove(output);
                save(QStringLiteral("08-predict"));
                estimateYourModel();
            });
        },
        Qt::SingleShotConnection);
    mWindow->predictPage()->predictFile(mDataPath, output);
}

void ScreenshotTour::estimateYourModel()
{
    if (mYourModelPath.isEmpty()) {
        showHelpPanel();
        return;
    }
    YourModelPage *page = mWindow->yourModelPage();
    mWindow->showPage(page);
    page->openModel(mYourModelPath);
    page->findChild<QLineEdit *>(QStringLiteral("inputShapes"))->setText(mYourModelShape);
    page->findChild<QLineEdit *>(QStringLiteral("batchSizes"))->setText(QStringLiteral("32,64,128,256"));
    connect(
        page, &YourModelPage::estimateFinished, this,
        [this, page](bool succeeded) {
            auto *charts = page->findChild<QTabWidget *>(QStringLiteral("estimateCharts"));
            QTimer::singleShot(settleMilliseconds, this, [this, charts, succeeded] {
                save(QStringLiteral("12-your-model"));
                if (!succeeded || !charts) {
                    showHelpPanel();
                    return;
                }
                charts->setCurrentIndex(2);
                QTimer::singleShot(settleMilliseconds, this, [this, charts] {
                    save(QStringLiteral("13-your-model-timeline"));
                    charts->setCurrentIndex(0);
                    showHelpPanel();
                });
            });
        },
        Qt::SingleShotConnection);
    if (!page->start()) {
        save(QStringLiteral("12-your-model"));
        showHelpPanel();
    }
}

void ScreenshotTour::showHelpPanel()
{
    mWindow->showPage(mWindow->modelPage());
    mWindow->showHelp();
    QTimer::singleShot(settleMilliseconds, this, [this] {
        save(QStringLiteral("09-help"));
        showLargeFont();
    });
}

void ScreenshotTour::showLargeFont()
{
    // The projector mode: the comparison's charts read from the back of a room at 1024×768, at the largest zoom step.
    if (auto *help = mWindow->findChild<QDockWidget *>(QStringLiteral("helpDock")))
        help->hide();
    mWindow->resize(1024, 768);
    const int zoom = mWindow->zoom();
    mWindow->setZoom(zoomSteps.back());
    mWindow->showPage(mWindow->comparePage());
    if (auto *results = mWindow->comparePage()->findChild<QTabWidget *>(QStringLiteral("compareResults")))
        results->setCurrentIndex(0);
    QTimer::singleShot(settleMilliseconds * 2, this, [this, zoom] {
        save(QStringLiteral("11-large-font"));
        showChartFullWindow(zoom);
    });
}

void ScreenshotTour::showChartFullWindow(int zoom)
{
    // The training's loss alone, full screen, as F11 shows it for the back row.
    mWindow->showPage(mWindow->trainingPage());
    auto *chart = mWindow->trainingPage()->findChild<QWidget *>(QStringLiteral("lossChart"));
    if (chart)
        mWindow->chartFullWindow()->showAlone(chart);
    QTimer::singleShot(settleMilliseconds * 2, this, [this, chart, zoom] {
        if (chart)
            chart->grab().save(QDir(mDirectory).filePath(QStringLiteral("16-chart-full-window.png")), "PNG");
        mWindow->chartFullWindow()->restore();
        // The setting is remembered: leave the user's choice as it was.
        mWindow->setZoom(zoom);
        // exit(), not quit(): quitting closes the window, which asks about the unsaved trained model.
        QApplication::exit(0);
    });
}

} // namespace gpumem::ui
