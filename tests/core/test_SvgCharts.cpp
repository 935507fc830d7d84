// SPDX-License-Identifier: GPL-3.0-or-later
// The HTML report's charts at the edges of the doubles: issue 24 found an empty tick
// list at targets of 1e80 and a crash in the scatter plot at ±1.7e308.
#include "FiniteRanges.h"
#include "report/SvgCharts.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

using gpumem::report::Bar;
using gpumem::report::Curve;

namespace {

// Whether every number the SVG's attributes hold is finite and every chart closes.
void checkDrawable(const std::string &svg)
{
    const QString text = QString::fromStdString(svg);
    QVERIFY2(text.startsWith("<svg") && text.trimmed().endsWith("</svg>"), svg.substr(0, 200).c_str());
    QVERIFY2(!text.contains(QRegularExpression(R"(='[^']*(nan|inf)[^']*')", QRegularExpression::CaseInsensitiveOption)),
             svg.c_str());
    // A chart with an axis has at least two labelled ticks on it.
    QVERIFY2(text.count("<text") >= 3, svg.c_str());
    // Every point lands inside the picture (420 × 280).
    const QRegularExpression position(R"(\b(x|y|cx|cy|x1|x2|y1|y2)='(-?[0-9.]+)')");
    for (auto match = position.globalMatch(text); match.hasNext();) {
        const double value = match.next().captured(2).toDouble();
        QVERIFY2(value >= -1.0 && value <= 421.0, svg.c_str());
    }
}

} // namespace

class TestSvgCharts : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void chartsDrawAnyFiniteRange_data() { gpumem::tests::addFiniteRangeRows(); }

    void chartsDrawAnyFiniteRange()
    {
        QFETCH(double, low);
        QFETCH(double, high);
        const std::vector<double> values{low, (low / 2) + (high / 2), high};
        std::vector<Bar> bars;
        for (std::size_t i = 0; i < values.size(); ++i)
            bars.push_back({"model " + std::to_string(i), values[i], std::abs(values[i]) / 10, i == 0});
        checkDrawable(gpumem::report::svgBarChart("RMSE", "MiB", false, bars));
        // The RMSE of such targets can overflow: that model has no bar, the others keep theirs.
        bars.push_back({"overflowed", std::numeric_limits<double>::infinity(), 0.0, false});
        checkDrawable(gpumem::report::svgBarChart("RMSE", "MiB", false, bars));
        checkDrawable(gpumem::report::svgScatterPlot("Predicted against actual", values, {high, low, values[1]}));
        Curve curve;
        curve.label = "bound";
        curve.x = values;
        curve.y = {high, values[1], low};
        curve.markerX = values[1];
        curve.markerY = values[1];
        checkDrawable(gpumem::report::svgLineChart("Risk against waste", "waste", "risk", {curve}));
    }
};

QTEST_GUILESS_MAIN(TestSvgCharts)
#include "test_SvgCharts.moc"
