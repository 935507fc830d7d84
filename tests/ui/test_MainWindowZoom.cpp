// SPDX-License-Identifier: GPL-3.0-or-later
// View ▸ Zoom: the application font steps 100 %, 125 %, 150 %, 175 %, 200 % from the normal
// font, the step is remembered, Large font is the 150 % step, and chart lines thicken with it.
#include "UiTestSupport.h"
#include "ui/app/MainWindow.h"
#include "ui/app/ZoomSteps.h"
#include "ui/charts/ChartStyle.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/pages/TrainingPage.h"

#include <QAction>
#include <QApplication>
#include <QSignalSpy>
#include <QTest>

using namespace gpumem;

namespace {

QAction *action(const ui::MainWindow &window, const char *name)
{
    return window.findChild<QAction *>(QString::fromLatin1(name));
}

} // namespace

class TestMainWindowZoom : public QObject
{
    Q_OBJECT

  private:
    double mNormalPoints = 0.0;

  private Q_SLOTS:
    void initTestCase()
    {
        tests::isolateSettings("test_MainWindowZoom");
        mNormalPoints = QApplication::font().pointSizeF();
        QVERIFY(mNormalPoints > 0);
    }

    void cleanup() { QSettings().clear(); }

    void stepsSnapAndStopAtTheEnds()
    {
        QCOMPARE(ui::nearestZoomStep(160), 150);
        QCOMPARE(ui::nearestZoomStep(500), 200);
        QCOMPARE(ui::largerZoomStep(100), 125);
        QCOMPARE(ui::largerZoomStep(200), 200);
        QCOMPARE(ui::smallerZoomStep(125), 100);
        QCOMPARE(ui::smallerZoomStep(100), 100);
    }

    void zoomActionsStepTheApplicationFont()
    {
        ui::MainWindow window;
        QCOMPARE(window.zoom(), 100);
        QCOMPARE(QApplication::font().pointSizeF(), mNormalPoints);
        const std::vector<int> expected{125, 150, 175, 200, 200};
        for (const int percent : expected) {
            action(window, "zoomInAction")->trigger();
            QCOMPARE(window.zoom(), percent);
            QCOMPARE(QApplication::font().pointSizeF(), mNormalPoints * percent / 100.0);
            QCOMPARE(action(window, "largeFontAction")->isChecked(), percent >= 150);
        }
        QVERIFY(!action(window, "zoomInAction")->isEnabled());
        action(window, "zoomOutAction")->trigger();
        QCOMPARE(window.zoom(), 175);
        QCOMPARE(QApplication::font().pointSizeF(), mNormalPoints * 1.75);
        action(window, "resetZoomAction")->trigger();
        QCOMPARE(window.zoom(), 100);
        QCOMPARE(QApplication::font().pointSizeF(), mNormalPoints);
        QVERIFY(!action(window, "zoomOutAction")->isEnabled());
    }

    void shortcutsAreTheUsualOnes()
    {
        ui::MainWindow window;
        const QList<QKeySequence> zoomIn = action(window, "zoomInAction")->shortcuts();
        QVERIFY(zoomIn.contains(QKeySequence(QStringLiteral("Ctrl++"))));
        QVERIFY(zoomIn.contains(QKeySequence(QStringLiteral("Ctrl+="))));
        QCOMPARE(action(window, "zoomOutAction")->shortcut(), QKeySequence(QStringLiteral("Ctrl+-")));
        QCOMPARE(action(window, "resetZoomAction")->shortcut(), QKeySequence(QStringLiteral("Ctrl+0")));
        QCOMPARE(action(window, "chartFullWindowAction")->shortcut(), QKeySequence(QStringLiteral("F11")));
        // Typed as a user would, in the active window.
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_Equal, Qt::ControlModifier);
        QCOMPARE(window.zoom(), 125);
        QTest::keyClick(&window, Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(window.zoom(), 100);
    }

    void largeFontIsTheMiddleStep()
    {
        ui::MainWindow window;
        action(window, "largeFontAction")->setChecked(true);
        QCOMPARE(window.zoom(), 150);
        QCOMPARE(QApplication::font().pointSizeF(), mNormalPoints * 1.5);
        window.setZoom(200);
        QVERIFY(window.isLargeFont());
        action(window, "largeFontAction")->setChecked(false);
        QCOMPARE(window.zoom(), 100);
        window.setZoom(125);
        QVERIFY(!window.isLargeFont());
        QVERIFY(!action(window, "largeFontAction")->isChecked());
    }

    void theStepIsRemembered()
    {
        {
            ui::MainWindow window;
            window.setZoom(175);
        }
        ui::MainWindow reopened;
        QCOMPARE(reopened.zoom(), 175);
        QCOMPARE(QApplication::font().pointSizeF(), mNormalPoints * 1.75);
        reopened.resetZoom();
    }

    // Settings written before the zoom steps hold only the large-font switch.
    void anOldLargeFontSettingOpensAtItsStep()
    {
        QSettings().setValue(QStringLiteral("view/largeFont"), true);
        ui::MainWindow window;
        QCOMPARE(window.zoom(), 150);
        window.resetZoom();
    }

    void chartLinesAndMarkersThickenWithTheZoom()
    {
        ui::MainWindow window;
        QCustomPlot *loss = window.trainingPage()->findChild<QCustomPlot *>(QStringLiteral("lossChart"));
        QVERIFY(loss);
        QVERIFY(loss->graphCount() > 0);
        loss->replot();
        std::vector<double> widths;
        std::vector<double> markers;
        for (int graph = 0; graph < loss->graphCount(); ++graph) {
            widths.push_back(loss->graph(graph)->pen().widthF());
            markers.push_back(loss->graph(graph)->scatterStyle().size());
        }
        window.setZoom(200);
        QCOMPARE(ui::chartLineScale(), 2.0);
        // Twice, to show that the scale never compounds over replots.
        loss->replot();
        loss->replot();
        for (int graph = 0; graph < loss->graphCount(); ++graph) {
            // A zero-width pen is one cosmetic pixel, which doubles to two.
            QCOMPARE(loss->graph(graph)->pen().widthF(), widths[graph] == 0.0 ? 2.0 : 2.0 * widths[graph]);
            if (!loss->graph(graph)->scatterStyle().isNone())
                QCOMPARE(loss->graph(graph)->scatterStyle().size(), 2.0 * markers[graph]);
        }
        window.resetZoom();
        loss->replot();
        for (int graph = 0; graph < loss->graphCount(); ++graph)
            QCOMPARE(loss->graph(graph)->pen().widthF(), widths[graph]);
    }
};

QTEST_MAIN(TestMainWindowZoom)
#include "test_MainWindowZoom.moc"
