// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page's charts at the edges of the doubles. Issue 24: the workbench
// crashed in the predicted-versus-actual chart opening a project whose comparison
// held ±1e308; a residual of two such values does not even fit a double.
#include "FiniteRanges.h"
#include "ui/charts/ComparisonCharts.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QLineSeries>
#include <QPixmap>
#include <QTest>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace {

// Paints chart at a typical size and checks that every value axis has a finite range.
void checkDrawable(QChart *chart)
{
    QChartView view(chart);
    view.resize(480, 360);
    QVERIFY(!view.grab().isNull());
    for (QAbstractAxis *axis : chart->axes()) {
        if (auto *values = qobject_cast<QValueAxis *>(axis)) {
            QVERIFY2(std::isfinite(values->min()) && std::isfinite(values->max()), qPrintable(values->titleText()));
            QVERIFY2(values->min() < values->max(), qPrintable(values->titleText()));
        }
    }
}

} // namespace

class TestComparisonCharts : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void chartsOfAnyFiniteValuesDraw_data() { gpumem::tests::addFiniteRangeRows(); }

    void chartsOfAnyFiniteValuesDraw()
    {
        QFETCH(double, low);
        QFETCH(double, high);
        Eigen::VectorXd actual(4);
        actual << low, high, low, (low / 2) + (high / 2);
        Eigen::VectorXd predicted(4);
        predicted << high, low, low, std::nan("");
        checkDrawable(gpumem::ui::predictedVsActualChart(QStringLiteral("network"), actual, predicted));
        checkDrawable(gpumem::ui::residualHistogramChart(QStringLiteral("network"), actual, predicted));
    }

    // Issue 25: one far outlier made the histogram two bars, one each side of zero.
    void anOutlierLeavesTheResidualsSpreadOverBars()
    {
        constexpr int rows = 100;
        Eigen::VectorXd actual = Eigen::VectorXd::Constant(rows, 1000.0);
        Eigen::VectorXd predicted(rows);
        for (int row = 0; row < rows; ++row)
            predicted[row] = 1000.0 + (row - rows / 2) * 0.4; // residuals from −20 to +20 MiB
        predicted[0] = 1000.0 + 5000.0;
        QChart *chart = gpumem::ui::residualHistogramChart(QStringLiteral("network"), actual, predicted);
        int filledBars = 0;
        for (QAbstractSeries *series : chart->series())
            if (auto *area = qobject_cast<QAreaSeries *>(series)) {
                const auto points = area->upperSeries()->points();
                for (int point = 0; point + 1 < points.size(); point += 2)
                    filledBars += points[point].y() > 0.0 ? 1 : 0;
            }
        QVERIFY2(filledBars >= 6, qPrintable(QString::number(filledBars)));
        // The 98th percentile of the residuals' sizes is 19.6 MiB; the axis reaches the next
        // round number, so its ticks read −20, −10, 0, 10, 20.
        auto *axis = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(axis);
        QCOMPARE(axis->min(), -20.0);
        QCOMPARE(axis->max(), 20.0);
        QCOMPARE(axis->tickCount(), 5);
        delete chart;
    }

    // Issue 25: an MSE axis read "1e+04"; ticks are plain numbers with the decimals their step needs.
    void metricTicksArePlainNumbers_data()
    {
        QTest::addColumn<double>("rmse");
        QTest::addColumn<bool>("wholeNumbers");
        QTest::newRow("thousands") << 19145.0 << true;
        QTest::newRow("fractions") << 0.3 << false;
    }
    void metricTicksArePlainNumbers()
    {
        QFETCH(double, rmse);
        QFETCH(bool, wholeNumbers);
        gpumem::evaluation::ExperimentResult result;
        for (const char *name : {"first", "second"}) {
            gpumem::evaluation::ModelResult model;
            model.name = name;
            model.title = name;
            model.mean.rmse = rmse;
            result.models.push_back(model);
        }
        const auto &metrics = gpumem::evaluation::metricDescriptions();
        const auto rmseMetric = std::find_if(metrics.begin(), metrics.end(),
                                             [](const auto &metric) { return std::string(metric.key) == "rmse"; });
        QChart *chart = gpumem::ui::metricBarChart(result, *rmseMetric);
        const auto axes = chart->axes(Qt::Horizontal);
        const QString format = static_cast<QValueAxis *>(axes.front())->labelFormat();
        QVERIFY2(format.endsWith(QLatin1Char('f')), qPrintable(format));
        QCOMPARE(format == QStringLiteral("%.0f"), wholeNumbers);
        delete chart;
    }

    // The metric bars and the importance bars are drawn by one helper: the first bar on top,
    // and an error bar (cap, whisker, cap) only where one is asked for.
    void horizontalBarsPutTheFirstOnTopWithWhiskersAsked()
    {
        QChart chart;
        auto *set = new QBarSet(QStringLiteral("length"));
        auto *values = new QValueAxis;
        values->setRange(0.0, 10.0);
        gpumem::ui::addHorizontalBars(&chart, set,
                                      {{QStringLiteral("a"), 3.0, true, 2.0, 4.5},
                                       {QStringLiteral("b"), 5.0, false, 0.0, 0.0},
                                       {QStringLiteral("c"), 7.0, true, 6.0, 8.0}},
                                      values);
        // Qt stacks horizontal categories bottom up: the last appended is drawn on top.
        QCOMPARE(set->count(), 3);
        QCOMPARE(set->at(0), 7.0);
        QCOMPARE(set->at(2), 3.0);
        auto *categories = qobject_cast<QBarCategoryAxis *>(chart.axes(Qt::Vertical).front());
        QVERIFY(categories);
        QCOMPARE(categories->categories(),
                 (QStringList{QStringLiteral("c"), QStringLiteral("b"), QStringLiteral("a")}));
        QCOMPARE(chart.axes(Qt::Horizontal).front(), values);
        std::vector<QLineSeries *> whiskers;
        for (QAbstractSeries *series : chart.series())
            if (auto *line = qobject_cast<QLineSeries *>(series))
                whiskers.push_back(line);
        QCOMPARE(whiskers.size(), std::size_t{2});
        // "a" is the top category (index 2), "c" the bottom one (index 0).
        const QList<QPointF> top = whiskers[0]->points();
        QCOMPARE(top, (QList<QPointF>{{2.0, 1.88}, {2.0, 2.12}, {2.0, 2.0}, {4.5, 2.0}, {4.5, 1.88}, {4.5, 2.12}}));
        QCOMPARE(whiskers[1]->at(2), QPointF(6.0, 0.0));
        QCOMPARE(whiskers[1]->at(3), QPointF(8.0, 0.0));
        QCOMPARE(whiskers[1]->attachedAxes().size(), 2);
    }
};

QTEST_MAIN(TestComparisonCharts)
#include "test_ComparisonCharts.moc"
