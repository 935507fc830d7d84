// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page's charts at the edges of the doubles. Issue 24: the workbench
// crashed in the predicted-versus-actual chart opening a project whose comparison
// held ±1e308; a residual of two such values does not even fit a double.
#include "FiniteRanges.h"
#include "ui/ComparisonCharts.h"

#include <QChartView>
#include <QPixmap>
#include <QTest>
#include <QValueAxis>

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
};

QTEST_MAIN(TestComparisonCharts)
#include "test_ComparisonCharts.moc"
