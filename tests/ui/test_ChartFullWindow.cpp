// SPDX-License-Identifier: GPL-3.0-or-later
// Any chart alone, full window, for the back of a room: F11 (View ▸ Chart full window) or a
// double-click on a QChartView shows it alone; Esc, F11 or a double-click on a QChartView
// returns it to the very place it left.
#include "SmallScreen.h"
#include "UiTestSupport.h"
#include "ui/app/MainWindow.h"
#include "ui/charts/ChartFullWindow.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/pages/ComparePage.h"
#include "ui/pages/TrainingPage.h"

#include <QAction>
#include <QChartView>
#include <QLabel>
#include <QScreen>
#include <QSignalSpy>
#include <QTest>

using namespace gpumem;

namespace {

constexpr int kScreenWidth = 1024;
constexpr int kScreenHeight = 768;

// Where a chart sits in its page: its parent and its rectangle there.
struct Place
{
    QWidget *parent;
    QRect geometry;
};

Place placeOf(const QWidget *chart)
{
    return {chart->parentWidget(), chart->geometry()};
}

bool showsAlone(const QWidget *chart)
{
    return chart->isWindow() && chart->isVisible() && chart->windowState().testFlag(Qt::WindowFullScreen) &&
           chart->geometry() == chart->screen()->geometry();
}

QString where(const QWidget *chart, const Place &place)
{
    const QRect now = chart->geometry();
    return QStringLiteral("window %1, visible %2, at %3,%4 %5×%6, was %7,%8 %9×%10")
        .arg(chart->isWindow())
        .arg(chart->isVisible())
        .arg(now.x())
        .arg(now.y())
        .arg(now.width())
        .arg(now.height())
        .arg(place.geometry.x())
        .arg(place.geometry.y())
        .arg(place.geometry.width())
        .arg(place.geometry.height());
}

bool isBackAt(const QWidget *chart, const Place &place)
{
    return !chart->isWindow() && chart->isVisible() && chart->parentWidget() == place.parent &&
           chart->geometry() == place.geometry;
}

// Shows window on its Training page, whose loss chart the tests show alone; returns
// whether the window came on screen.
bool showTrainingPage(ui::MainWindow &window)
{
    window.show();
    window.showPage(window.trainingPage());
    return QTest::qWaitForWindowExposed(&window);
}

} // namespace

class TestChartFullWindow : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { tests::isolateSettings("test_ChartFullWindow"); }

    void f11ShowsTheCustomPlotUnderTheMouseAndEscReturnsIt()
    {
        ui::MainWindow window;
        QVERIFY(showTrainingPage(window));
        auto *loss = window.trainingPage()->findChild<QCustomPlot *>(QStringLiteral("lossChart"));
        QVERIFY(loss && loss->isVisible());
        QTest::qWait(50);
        const Place place = placeOf(loss);
        QTest::mouseMove(loss, loss->rect().center());
        window.findChild<QAction *>(QStringLiteral("chartFullWindowAction"))->trigger();
        QTRY_VERIFY(showsAlone(loss));
        QCOMPARE(window.chartFullWindow()->chart(), loss);
        auto *hint = loss->findChild<QLabel *>(QStringLiteral("chartFullWindowHint"));
        QVERIFY(hint && hint->isVisible());
        QVERIFY(hint->text().contains(QStringLiteral("F11")));
        QTest::keyClick(loss, Qt::Key_Escape);
        QTRY_VERIFY2(isBackAt(loss, place), qPrintable(where(loss, place)));
        QVERIFY(!window.chartFullWindow()->chart());
        QVERIFY(!loss->findChild<QLabel *>(QStringLiteral("chartFullWindowHint")));
        // F11 in the full window returns too.
        QVERIFY(window.chartFullWindow()->showAlone(loss));
        QTRY_VERIFY(showsAlone(loss));
        QTest::keyClick(loss, Qt::Key_F11);
        QTRY_VERIFY2(isBackAt(loss, place), qPrintable(where(loss, place)));
    }

    // A double-click on a QCustomPlot resets its view as before; it does not leave the page.
    void doubleClickKeepsResettingACustomPlot()
    {
        ui::MainWindow window;
        QVERIFY(showTrainingPage(window));
        auto *loss = window.trainingPage()->findChild<QCustomPlot *>(QStringLiteral("lossChart"));
        QTest::mouseDClick(loss, Qt::LeftButton, {}, loss->rect().center());
        QVERIFY(!loss->isWindow());
        QVERIFY(!window.chartFullWindow()->chart());
    }

    void withoutTheMouseOnAChartF11ShowsThePagesLargest()
    {
        ui::MainWindow window;
        QVERIFY(showTrainingPage(window));
        auto *loss = window.trainingPage()->findChild<QCustomPlot *>(QStringLiteral("lossChart"));
        auto *rate = window.trainingPage()->findChild<QCustomPlot *>(QStringLiteral("optimisationChart"));
        // The loss chart is the larger of the page's two.
        QVERIFY(loss->height() * loss->width() > rate->height() * rate->width());
        QTest::mouseMove(window.menuBar(), QPoint(2, 2));
        QVERIFY(window.showChartFullWindow());
        QCOMPARE(window.chartFullWindow()->chart(), loss);
        QVERIFY(!rate->isWindow());
        window.chartFullWindow()->restore();
        QTRY_VERIFY(!loss->isWindow());
    }

    void doubleClickShowsAQChartViewAloneAndBack()
    {
        ui::MainWindow window;
        window.resize(kScreenWidth, kScreenHeight);
        tests::prepareQuickTraining(*window.state(), 1);
        window.show();
        window.showPage(window.comparePage());
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::ComparePage *page = window.comparePage();
        page->setSelectedModels({QStringLiteral("decision_tree"), QStringLiteral("ridge")});
        page->setFolds(2);
        QSignalSpy finished(page, &ui::ComparePage::comparisonFinished);
        QVERIFY(page->start());
        QVERIFY(finished.wait(120000));
        QTest::qWait(100);
        QChartView *view = nullptr;
        for (QChartView *candidate : page->chartViews())
            if (candidate->isVisible())
                view = candidate;
        QVERIFY(view);
        const Place place = placeOf(view);
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, view->viewport()->rect().center());
        QTRY_VERIFY(showsAlone(view));
        QCOMPARE(window.chartFullWindow()->chart(), view);
        QVERIFY(view->findChild<QLabel *>(QStringLiteral("chartFullWindowHint"))
                    ->text()
                    .contains(QStringLiteral("double-click")));
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, view->viewport()->rect().center());
        QTRY_VERIFY2(isBackAt(view, place), qPrintable(where(view, place)));
    }

    // A page that shows no chart has nothing to show alone.
    void aPageWithoutChartsShowsNothing()
    {
        ui::MainWindow window;
        window.show();
        window.pages()->setCurrentIndex(1);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::mouseMove(window.menuBar(), QPoint(2, 2));
        QVERIFY(!window.showChartFullWindow());
        QVERIFY(!window.chartFullWindow()->chart());
    }
};

int main(int argc, char **argv)
{
    return gpumem::tests::runOnScreen<TestChartFullWindow>(argc, argv, kScreenWidth, kScreenHeight);
}

#include "test_ChartFullWindow.moc"
