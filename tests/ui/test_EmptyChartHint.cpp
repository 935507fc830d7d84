// SPDX-License-Identifier: GPL-3.0-or-later
// Empty pages showed dummy 0–5 axes and empty legends; a chart with nothing to show says what
// to do instead, and drawing data brings its axes back.
#include "UiTestSupport.h"
#include "ui/app/MainWindow.h"
#include "ui/charts/EmptyChartHint.h"
#include "ui/charts/QCustomPlotInclude.h"

#include <QTabWidget>
#include <QTest>

using namespace gpumem;

namespace {

bool anyAxisVisible(QCustomPlot *plot)
{
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *axis : rect->axes())
            if (axis->visible() || axis->grid()->visible())
                return true;
    return false;
}

} // namespace

class TestEmptyChartHint : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { tests::isolateSettings("test_EmptyChartHint"); }

    void hintReplacesAxesUntilDataComes()
    {
        QCustomPlot plot;
        plot.resize(400, 300);
        plot.legend->setVisible(true);
        plot.yAxis2->setVisible(false);
        const QString hint = QStringLiteral("Load a CSV (Ctrl+O) or Help ▸ Demo, then train");
        ui::setEmptyChartHint(&plot, hint);
        plot.replot();
        QCOMPARE(ui::shownEmptyChartHint(&plot), hint);
        QVERIFY(!anyAxisVisible(&plot));
        QVERIFY(!plot.legend->visible());
        // An empty curve is still nothing to show.
        QCPGraph *graph = plot.addGraph();
        plot.replot();
        QCOMPARE(ui::shownEmptyChartHint(&plot), hint);
        graph->setData({1.0, 2.0, 3.0}, {4.0, 5.0, 6.0});
        plot.replot();
        QVERIFY(ui::shownEmptyChartHint(&plot).isEmpty());
        QVERIFY(plot.xAxis->visible() && plot.yAxis->visible() && plot.xAxis->grid()->visible());
        QVERIFY(plot.legend->visible());
        // Only what the hint hid comes back: the right-hand axis stays as the chart had it.
        QVERIFY(!plot.yAxis2->visible());
        graph->data()->clear();
        plot.replot();
        QCOMPARE(ui::shownEmptyChartHint(&plot), hint);
        QVERIFY(!anyAxisVisible(&plot));
    }

    void hintWrapsToTheChartsWidth()
    {
        QCustomPlot plot;
        plot.resize(200, 200);
        ui::setEmptyChartHint(&plot, QStringLiteral("Open a TorchScript model or a config.json, then press Estimate"));
        plot.replot();
        auto *item = plot.findChild<QCPItemText *>(QStringLiteral("emptyChartHint"));
        QVERIFY(item);
        const QFontMetrics metrics(item->font());
        for (const QString &line : item->text().split(QLatin1Char('\n')))
            QVERIFY2(metrics.horizontalAdvance(line) <= plot.width(), qPrintable(line));
        QVERIFY(item->text().count(QLatin1Char('\n')) >= 1);
    }

    // Before any data, every chart of every page says what to do and draws no axes.
    void everyChartOfAFreshWindowShowsAHint()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QList<QCustomPlot *> plots = window.findChildren<QCustomPlot *>();
        QVERIFY(plots.size() >= 8);
        for (QCustomPlot *plot : plots) {
            plot->replot();
            QVERIFY2(!ui::shownEmptyChartHint(plot).isEmpty(), qPrintable(plot->objectName()));
            QVERIFY2(!anyAxisVisible(plot), qPrintable(plot->objectName()));
        }
    }
};

QTEST_MAIN(TestEmptyChartHint)
#include "test_EmptyChartHint.moc"
