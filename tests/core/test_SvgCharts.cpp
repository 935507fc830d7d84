// SPDX-License-Identifier: GPL-3.0-or-later
// The HTML report's charts at the edges of the doubles: issue 24 found an empty tick
// list at targets of 1e80 and a crash in the scatter plot at ±1.7e308.
#include "FiniteRanges.h"
#include "report/SvgCharts.h"

#include <Eigen/Core>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

using gpumem::report::Bar, gpumem::report::BarScale, gpumem::report::Curve;

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
            bars.push_back({"model " + std::to_string(i), values[i], std::abs(values[i]) / 10, i == 0, {}});
        checkDrawable(gpumem::report::svgBarChart("RMSE", "MiB", false, bars));
        // The RMSE of such targets can overflow: that model has no bar, the others keep theirs.
        bars.push_back({"overflowed", std::numeric_limits<double>::infinity(), 0.0, false, {}});
        checkDrawable(gpumem::report::svgBarChart("RMSE", "MiB", false, bars));
        checkDrawable(gpumem::report::svgScatterPlot("Predicted against actual", values, {high, low, values[1]}));
        Curve curve;
        curve.label = "bound";
        curve.x = values;
        curve.y = {high, values[1], low};
        curve.markerX = values[1];
        curve.markerY = values[1];
        checkDrawable(gpumem::report::svgLineChart("Risk against waste", "waste", "risk", {curve}));
        // The log scale draws positive values of any size, and falls back to a linear axis without one.
        std::vector<Bar> shares;
        for (double value : values)
            shares.push_back({"model", std::abs(value), 0.0, false, "label"});
        checkDrawable(gpumem::report::svgBarChart("1 − R²", "", false, shares, BarScale::Logarithmic));
        const Eigen::VectorXd actual = Eigen::Map<const Eigen::VectorXd>(values.data(), 3);
        const Eigen::VectorXd predicted = actual.reverse();
        checkDrawable(
            gpumem::report::svgResidualHistogram("Residuals", gpumem::report::residualHistogram(actual, predicted)));
    }

    // Issue: the R² chart showed five bars all at 1.0. Drawn as 1 − R² on a log scale, a
    // model that leaves ten times less unexplained has a bar a decade shorter, and each bar
    // keeps the R² the tables give as its label.
    void logScaleShowsDifferencesNearOne()
    {
        const std::vector<double> r2{0.999, 0.99, 0.9};
        std::vector<Bar> bars;
        for (double value : r2)
            bars.push_back({"m", 1.0 - value, 0.0, false, QString::number(value, 'f', 5).toStdString()});
        const QString svg =
            QString::fromStdString(gpumem::report::svgBarChart("1 − R²", "", false, bars, BarScale::Logarithmic));
        // Bars stand on the axis' floor, 0.001; a decade is a fixed height.
        const QRegularExpression rect(R"(<rect x='[0-9.]+' width='[0-9.]+' y='([0-9.]+)' height='([0-9.]+)')");
        std::vector<double> heights;
        for (auto match = rect.globalMatch(svg); match.hasNext();)
            heights.push_back(match.next().captured(2).toDouble());
        QCOMPARE(heights.size(), std::size_t{3});
        QVERIFY(heights[0] < 1.0); // 1 − 0.999 sits on the floor
        QVERIFY(std::abs(heights[2] - 2.0 * heights[1]) < 0.2);
        for (const char *label : {"0.99900", "0.99000", "0.90000"})
            QVERIFY2(svg.contains(QString::fromLatin1(label)), label);
        // Ticks at round values: 0.001, 0.002, 0.005, … 0.1.
        for (const char *tick : {">0.001<", ">0.01<", ">0.1<", ">0.005<"})
            QVERIFY2(svg.contains(QString::fromLatin1(tick)), tick);
    }

    // The residual histogram counts every finite row once, its axis symmetric around zero
    // with zero on a bin edge, under-predictions (predicted below actual) in the "under" bins.
    void residualHistogramCountsEveryRowOnItsSide()
    {
        Eigen::VectorXd actual = Eigen::VectorXd::Constant(100, 1000.0);
        Eigen::VectorXd predicted(100);
        for (int row = 0; row < 100; ++row)
            predicted[row] = 1000.0 + (row < 30 ? -(row + 1) : row - 29); // 30 under, 70 over, none exact
        predicted[99] = std::nan("");
        const auto histogram = gpumem::report::residualHistogram(actual, predicted);
        QCOMPARE(histogram.residuals, std::size_t{99});
        QCOMPARE(histogram.counts.size() % 2, std::size_t{0});
        QCOMPARE(histogram.counts.size(), std::size_t{8}); // √99 rounded down to an even count
        // The 98th percentile of the sizes is 69, rounded up to 80.
        QCOMPARE(histogram.reach, 80.0);
        double under = 0.0;
        double total = 0.0;
        for (std::size_t bin = 0; bin < histogram.counts.size(); ++bin) {
            total += histogram.counts[bin];
            if (bin < histogram.counts.size() / 2)
                under += histogram.counts[bin];
        }
        QCOMPARE(total, 99.0);
        QCOMPARE(under, 30.0);
        const QString svg = QString::fromStdString(gpumem::report::svgResidualHistogram("Ridge", histogram));
        QVERIFY(svg.contains(QStringLiteral("predicted − actual (MiB)")));
        QVERIFY(svg.contains(QRegularExpression(R"(class='bin under'/><text[^>]*>under</text>)")));
    }

    // Issue 25: the command line's HTML report printed the models' names under the bars on
    // top of each other. Each label's extent is estimated here at 0.6 em a character of the
    // 11 px label font (the chart's own estimate is wider), and no two may meet.
    void barLabelsNeverOverlap_data()
    {
        QTest::addColumn<int>("models");
        QTest::addColumn<QString>("name");
        QTest::newRow("two short names") << 2 << "Ridge";
        QTest::newRow("six long names") << 6 << "CUDA allocator simulation";
        QTest::newRow("twelve long names") << 12 << "BiGRU-Transformer";
    }

    void barLabelsNeverOverlap()
    {
        QFETCH(int, models);
        QFETCH(QString, name);
        std::vector<Bar> bars;
        for (int i = 0; i < models; ++i)
            bars.push_back({name.toStdString() + " " + std::to_string(i), 1000.0 + 37.0 * i, 10.0, i == 0, {}});
        const QString svg = QString::fromStdString(gpumem::report::svgBarChart("RMSE", "MiB", false, bars));
        const QRegularExpression viewBox(R"(viewBox='(-?[0-9.]+) 0 ([0-9.]+) ([0-9.]+)')");
        const auto box = viewBox.match(svg);
        QVERIFY(box.hasMatch());
        const double boxLeft = box.captured(1).toDouble();
        const double boxRight = boxLeft + box.captured(2).toDouble();
        const double boxBottom = box.captured(3).toDouble();
        const double em = 11.0;
        const QRegularExpression level(
            R"(<text x='([0-9.]+)' y='([0-9.]+)' text-anchor='middle' class='(label|value)'>([^<]*)<)");
        const QRegularExpression slanted(
            R"(<text transform='translate\(([0-9.]+),([0-9.]+)\) rotate\(-([0-9.]+)\)' text-anchor='end' class='label'>([^<]*)<)");
        std::map<double, std::vector<std::pair<double, double>>> rows; // y → [left, right] of each label
        std::vector<double> anchors;
        double angle = 0.0;
        int labels = 0;
        for (auto match = level.globalMatch(svg); match.hasNext(); ++labels) {
            const auto label = match.next();
            const double half = 0.6 * em * label.captured(4).size() / 2.0;
            const double x = label.captured(1).toDouble();
            rows[label.captured(2).toDouble()].push_back({x - half, x + half});
            QVERIFY(x - half >= boxLeft && x + half <= boxRight);
        }
        for (auto match = slanted.globalMatch(svg); match.hasNext(); ++labels) {
            const auto label = match.next();
            const double x = label.captured(1).toDouble();
            const double y = label.captured(2).toDouble();
            angle = label.captured(3).toDouble() * M_PI / 180.0;
            const double length = 0.6 * em * label.captured(4).size();
            QVERIFY2(label.captured(4).contains(QLatin1Char(':')), "a slanted label carries its value");
            QVERIFY(x - length * std::cos(angle) >= boxLeft);
            QVERIFY(y + length * std::sin(angle) <= boxBottom);
            anchors.push_back(x);
        }
        QVERIFY(labels >= models);
        for (auto &[y, spans] : rows) {
            std::sort(spans.begin(), spans.end());
            for (std::size_t i = 1; i < spans.size(); ++i)
                QVERIFY2(spans[i - 1].second <= spans[i].first,
                         qPrintable(QStringLiteral("labels meet at y %1").arg(y)));
        }
        // Parallel slanted lines whose anchors lie d apart on a level line are d·sin(angle) apart.
        for (std::size_t i = 1; i < anchors.size(); ++i)
            QVERIFY((anchors[i] - anchors[i - 1]) * std::sin(angle) >= em);
        if (models >= 6)
            QVERIFY2(!anchors.empty(), "long names are slanted");
    }

    // The MSE chart's ticks run to ten digits ("2000000000"): the rotated unit beside them
    // stands clear of the widest (0.6 em a character of the 11 px font) and inside the frame.
    void theUnitStandsClearOfLongTickLabels()
    {
        const std::vector<Bar> bars = {{"Decision tree", 2.1e9, 1e8, false, {}}, {"XGBoost", 1.4e9, 1e8, true, {}}};
        const QString svg = QString::fromStdString(gpumem::report::svgBarChart("MSE", "MiB²", false, bars));
        const auto box = QRegularExpression(R"(viewBox='(-?[0-9.]+) 0 )").match(svg);
        QVERIFY(box.hasMatch());
        const auto unit =
            QRegularExpression(
                R"(<text transform='translate\((-?[0-9.]+),[0-9.]+\) rotate\(-90\)' text-anchor='middle' class='tick'>MiB²<)")
                .match(svg);
        QVERIFY(unit.hasMatch());
        const double em = 11.0;
        const double unitX = unit.captured(1).toDouble();
        QVERIFY(unitX - em / 2 >= box.captured(1).toDouble());
        int ticks = 0;
        qsizetype longest = 0;
        const QRegularExpression tick(R"(<text x='([0-9.]+)' y='[0-9.]+' text-anchor='end' class='tick'>([^<]*)<)");
        for (auto match = tick.globalMatch(svg); match.hasNext(); ++ticks) {
            const auto label = match.next();
            const double labelLeft = label.captured(1).toDouble() - 0.6 * em * label.captured(2).size();
            QVERIFY2(unitX + em / 2 <= labelLeft, qPrintable(label.captured(2)));
            longest = std::max(longest, label.captured(2).size());
        }
        QVERIFY(ticks >= 3);
        QVERIFY2(longest >= 9, "the ticks are as long as the case needs");
    }

    // Issue 25: a caption said "red points are under-predictions" over charts without red.
    // The scatter plot keys its colours itself: every point below y = x, and only those,
    // carries the class the key calls "under", which the chart's style paints red.
    void scatterKeyMatchesItsColours()
    {
        const std::vector<double> actual{100, 200, 300, 400, 500};
        const std::vector<double> predicted{90, 210, 250, 400, 560};
        int below = 0;
        for (std::size_t i = 0; i < actual.size(); ++i)
            below += predicted[i] < actual[i] ? 1 : 0;
        const QString svg = QString::fromStdString(gpumem::report::svgScatterPlot("Ridge", actual, predicted));
        QVERIFY(svg.contains(QStringLiteral(".point.under { fill: #d62728")));
        QVERIFY(svg.contains(QStringLiteral(".point { fill: #1f77b4")));
        // The key: one circle of each class, each followed by its word.
        QVERIFY(svg.contains(QRegularExpression(R"(class='point under'/><text[^>]*>under</text>)")));
        QVERIFY(svg.contains(QRegularExpression(R"(class='point'/><text[^>]*>over</text>)")));
        QCOMPARE(svg.count(QStringLiteral("class='point under'")), below + 1);
        QCOMPARE(svg.count(QStringLiteral("class='point'")), static_cast<int>(actual.size()) - below + 1);
    }
};

QTEST_GUILESS_MAIN(TestSvgCharts)
#include "test_SvgCharts.moc"
