// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/SvgCharts.h"

#include "report/ReportText.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>

namespace gpumem::report {

namespace {

constexpr double width = 420.0;
constexpr double height = 280.0;
constexpr double left = 64.0;
constexpr double right = 12.0;
constexpr double top = 34.0;
constexpr double bottom = 58.0;
constexpr double plotWidth = width - left - right;
constexpr double plotHeight = height - top - bottom;
constexpr double labelFontSize = 11.0;
constexpr double slantDegrees = 40.0;
constexpr double slantTop = 12.0; // below the plot, where a slanted label starts

std::string coordinate(double value)
{
    return fmt::format("{:.1f}", value);
}

// Charts compute with values up to ±1.7e308 (a report of hostile data holds them):
// differences are taken of quarters, sums saturate at the largest double, and an axis
// always has a width it can be divided by.
constexpr double largest = std::numeric_limits<double>::max();

double saturated(double value)
{
    return std::clamp(value, -largest, largest);
}

// Widens [low, high] when it holds one value: upwards, or downwards at the largest double.
void giveWidth(double &low, double &high)
{
    if (low < high)
        return;
    const double pad = std::max(1.0, std::abs(high) * 1e-3);
    high = saturated(low + pad);
    if (!(low < high))
        low = saturated(high - pad);
}

// Returns about five round tick values covering [low, high] (finite, low < high).
std::vector<double> niceTicks(double low, double high)
{
    const double rough = (high / 4 - low / 4) / 1.25; // a fifth of the span, which may exceed the largest double
    const double power = std::pow(10.0, std::floor(std::log10(rough)));
    double step = power;
    for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (factor * power >= rough) {
            step = factor * power;
            break;
        }
    std::vector<double> ticks;
    for (double tick = std::ceil(low / step) * step; tick - step * 1e-9 <= high && ticks.size() < 12; tick += step)
        ticks.push_back(std::abs(tick) < step * 1e-9 ? 0.0 : tick);
    return ticks;
}

// Each chart carries its own style, so that it draws the same embedded in a page, on
// its own, or through a renderer that knows no page (the PDF report renders it with QtSvg).
constexpr const char *chartStyle =
    ".title { font-size: 13px; font-weight: 600; } .tick, .label, .value { font-size: 11px; fill: #444; } "
    ".grid { stroke: #e3e3e3; } .bar { fill: #7aa6d8; } .bar.best { fill: #2e7d32; } "
    ".error { stroke: #222; stroke-width: 1.5; } .identity { stroke: #888; stroke-dasharray: 4 3; } "
    ".point { fill: #1f77b4; fill-opacity: 0.45; } .point.under { fill: #d62728; fill-opacity: 0.6; } "
    ".bin { fill: #1f77b4; fill-opacity: 0.75; } .bin.under { fill: #d62728; }";

// The chart's frame: the viewBox widened by extraLeft to the left and extraBottom downwards
// (for slanted labels), the style and the title.
void header(std::ostringstream &svg, const std::string &title, double extraLeft = 0.0, double extraBottom = 0.0)
{
    svg << "<svg xmlns='http://www.w3.org/2000/svg' viewBox='" << coordinate(-extraLeft) << " 0 "
        << coordinate(width + extraLeft) << ' ' << coordinate(height + extraBottom)
        << "' font-family='sans-serif' class='chart' role='img' aria-label='" << htmlEscaped(title) << "'><style>"
        << chartStyle << "</style><text x='" << width / 2 << "' y='20' text-anchor='middle' class='title'>"
        << htmlEscaped(title) << "</text>";
}

// The values an axis shows: the data's range widened to its outermost ticks.
struct AxisRange
{
    double low;
    double high;
};

AxisRange rangeShown(double low, double high, const std::vector<double> &ticks)
{
    if (ticks.empty())
        return {low, high};
    return {std::min(low, ticks.front()), std::max(high, ticks.back())};
}

// The pixel column of value on a horizontal axis showing range.
double columnOf(const AxisRange &range, double value)
{
    return left + plotWidth * ((value / 4 - range.low / 4) / (range.high / 4 - range.low / 4));
}

// The pixel row of value on a vertical axis showing range, higher values higher up.
double rowOf(const AxisRange &range, double value)
{
    return top + plotHeight * ((range.high / 4 - value / 4) / (range.high / 4 - range.low / 4));
}

// Returns a tick's value for people: four significant digits without trailing zeros ("60", "0.25").
std::string tickText(double tick)
{
    std::string text = formatSignificant(tick, 4);
    if (text.find('.') == std::string::npos || text.find_first_of("eE") != std::string::npos)
        return text;
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.')
        text.pop_back();
    return text;
}

// A horizontal grid line at pixel row y, with a tick's label left of the plot.
void gridLine(std::ostringstream &svg, double y, const std::string &label)
{
    svg << "<line x1='" << left << "' x2='" << width - right << "' y1='" << coordinate(y) << "' y2='" << coordinate(y)
        << "' class='grid'/><text x='" << left - 6 << "' y='" << coordinate(y + 4)
        << "' text-anchor='end' class='tick'>" << label << "</text>";
}

// tick's label under the plot, at pixel column x.
void xTickLabel(std::ostringstream &svg, double x, double tick)
{
    svg << "<text x='" << coordinate(x) << "' y='" << height - bottom + 16 << "' text-anchor='middle' class='tick'>"
        << tickText(tick) << "</text>";
}

// The vertical axis of a bar chart: where a value sits, its ticks and their labels.
struct BarAxis
{
    std::vector<double> ticks;
    std::vector<std::string> tickLabels;
    double floor = 0.0; // where bars start: zero, or the bottom of a zoomed or logarithmic axis
    std::function<double(double)> row;
};

// A linear axis from zero (or zoomed onto the values when they all sit far from zero).
BarAxis linearAxis(const std::vector<Bar> &bars)
{
    double low = 0.0;
    double high = 0.0;
    for (const auto &bar : bars) {
        if (!std::isfinite(bar.value))
            continue;
        high = std::max(high, saturated(bar.value + bar.error));
        low = std::min(low, saturated(bar.value - bar.error));
    }
    // Values that all sit near the top would make equal-looking bars: zoom the axis onto them.
    double lowestValue = high;
    for (const auto &bar : bars)
        if (std::isfinite(bar.value))
            lowestValue = std::min(lowestValue, saturated(bar.value - bar.error));
    if (low == 0.0 && lowestValue > 0.8 * high && high > 0.0)
        low = lowestValue - (high - lowestValue) * 0.5;
    giveWidth(low, high);
    BarAxis axis;
    axis.ticks = niceTicks(low, high);
    for (double tick : axis.ticks)
        axis.tickLabels.push_back(tickText(tick));
    const AxisRange range = rangeShown(low, high, axis.ticks);
    axis.floor = range.low > 0.0 ? range.low : 0.0;
    axis.row = [range](double value) { return rowOf(range, value); };
    return axis;
}

// The round values of a logarithmic axis: 1, 2 and 5 times the powers of ten. Below
// 1e-307 (denormals) no such value is a normal double: the value itself ends the axis.
double roundBelow(double value)
{
    const double power = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {5.0, 2.0, 1.0})
        if (step * power <= value && step * power >= std::numeric_limits<double>::min())
            return step * power;
    return value;
}

// Past 1e308 no round value is a double: the value itself ends the axis.
double roundAbove(double value)
{
    const double power = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {1.0, 2.0, 5.0, 10.0})
        if (step * power >= value)
            return std::isfinite(step * power) ? step * power : value;
    return value;
}

// A logarithmic axis between round values (1, 2, 5 × 10ⁿ) holding every positive value and
// error bar end; nullopt when no value is positive.
std::optional<BarAxis> logarithmicAxis(const std::vector<Bar> &bars)
{
    double low = std::numeric_limits<double>::infinity();
    double high = 0.0;
    for (const auto &bar : bars) {
        if (!std::isfinite(bar.value) || bar.value <= 0.0)
            continue;
        low = std::min({low, bar.value, bar.value - bar.error > 0.0 ? bar.value - bar.error : bar.value});
        high = std::max(high, saturated(bar.value + bar.error));
    }
    if (!(high > 0.0))
        return std::nullopt;
    low = roundBelow(low);
    high = std::max(roundAbove(high), roundAbove(low * 1.5));
    const double lowDecade = std::log10(low);
    const double highDecade = std::max(std::log10(high), lowDecade + 0.1);
    BarAxis axis;
    // Over two decades or less, 1, 2 and 5 are labelled; wider spans label about six decades.
    const double decades = highDecade - lowDecade;
    const double step = std::max(1.0, std::ceil(decades / 6.0));
    for (double decade = std::floor(lowDecade); decade <= std::ceil(highDecade) && axis.ticks.size() < 12;
         decade += step)
        for (double factor : decades <= 2.0 ? std::vector<double>{1.0, 2.0, 5.0} : std::vector<double>{1.0}) {
            const double tick = factor * std::pow(10.0, decade);
            if (tick >= low * (1.0 - 1e-9) && tick <= high * (1.0 + 1e-9)) {
                axis.ticks.push_back(tick);
                axis.tickLabels.push_back(fmt::format("{:g}", tick));
            }
        }
    axis.floor = low;
    axis.row = [lowDecade, highDecade](double value) {
        const double decade = value > 0.0 ? std::clamp(std::log10(value), lowDecade, highDecade) : lowDecade;
        return top + plotHeight * (highDecade - decade) / (highDecade - lowDecade);
    };
    return axis;
}

} // namespace

double estimatedTextWidth(const std::string &text, double fontSize)
{
    // Code points, not bytes: a UTF-8 continuation byte starts with the bits 10.
    const auto codePoints =
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
    return 0.62 * fontSize * static_cast<double>(codePoints);
}

std::string svgBarChart(const std::string &title, const std::string &unit, bool higherIsBetter,
                        const std::vector<Bar> &bars, BarScale scale)
{
    std::ostringstream svg;
    std::optional<BarAxis> logarithmic = scale == BarScale::Logarithmic ? logarithmicAxis(bars) : std::nullopt;
    const BarAxis axis = logarithmic ? std::move(*logarithmic) : linearAxis(bars);
    const auto &y = axis.row;
    const double slot = (width - left - right) / static_cast<double>(std::max<std::size_t>(bars.size(), 1));
    // A bar without a value (NaN) shows none; one that overflowed (±inf) shows its value, without a bar.
    const auto valueText = [](const Bar &bar) {
        if (!bar.valueText.empty())
            return bar.valueText;
        return std::isnan(bar.value) ? std::string() : formatSignificant(bar.value, 4);
    };
    const auto slantedText = [&valueText](const Bar &bar) {
        const std::string value = valueText(bar);
        return value.empty() ? bar.label : bar.label + ": " + value;
    };
    // Labels wider than their bar's slot are slanted (with the value after the name), so
    // neighbours never overlap: slanted lines a slot apart are slot·sin(angle) apart.
    double widest = 0.0;
    for (const auto &bar : bars)
        widest = std::max(
            {widest, estimatedTextWidth(bar.label, labelFontSize), estimatedTextWidth(valueText(bar), labelFontSize)});
    const bool slanted = widest > slot - 4.0;
    const double radians = slantDegrees * std::acos(-1.0) / 180.0;
    double extraLeft = 0.0;
    double extraBottom = 0.0;
    if (slanted)
        for (std::size_t i = 0; i < bars.size(); ++i) {
            const double length = estimatedTextWidth(slantedText(bars[i]), labelFontSize);
            const double centre = left + slot * (static_cast<double>(i) + 0.5);
            extraLeft = std::max(extraLeft, length * std::cos(radians) - centre + 4.0);
            extraBottom = std::max(extraBottom, slantTop + length * std::sin(radians) + labelFontSize - bottom);
        }
    // The unit stands left of the widest tick label (MSE's run to ten digits), the frame
    // widened to hold it: at x = 14 it would run into labels wider than 36 px.
    double widestTick = 0.0;
    for (const auto &label : axis.tickLabels)
        widestTick = std::max(widestTick, estimatedTextWidth(label, labelFontSize));
    const double unitX = std::min(14.0, left - 6.0 - widestTick - labelFontSize);
    if (!unit.empty())
        extraLeft = std::max(extraLeft, labelFontSize - unitX);
    header(svg, title + (higherIsBetter ? "  ↑ higher is better" : "  ↓ lower is better"), extraLeft, extraBottom);
    for (std::size_t i = 0; i < axis.ticks.size(); ++i)
        gridLine(svg, y(axis.ticks[i]), axis.tickLabels[i]);
    if (!unit.empty())
        svg << "<text transform='translate(" << coordinate(unitX) << ',' << coordinate(top + plotHeight / 2)
            << ") rotate(-90)' text-anchor='middle' class='tick'>" << htmlEscaped(unit) << "</text>";
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const Bar &bar = bars[i];
        const double x = left + slot * static_cast<double>(i);
        const double centre = x + slot / 2.0;
        if (slanted)
            svg << "<text transform='translate(" << coordinate(centre) << ',' << height - bottom + slantTop
                << ") rotate(-" << slantDegrees << ")' text-anchor='end' class='label'>"
                << htmlEscaped(slantedText(bar)) << "</text>";
        else
            svg << "<text x='" << coordinate(centre) << "' y='" << height - bottom + 16
                << "' text-anchor='middle' class='label'>" << htmlEscaped(bar.label) << "</text><text x='"
                << coordinate(centre) << "' y='" << height - bottom + 32 << "' text-anchor='middle' class='value'>"
                << htmlEscaped(valueText(bar)) << "</text>";
        if (!std::isfinite(bar.value))
            continue;
        const double base = y(axis.floor);
        const double barTop = y(bar.value);
        svg << "<rect x='" << coordinate(x + slot * 0.18) << "' width='" << coordinate(slot * 0.64) << "' y='"
            << coordinate(std::min(base, barTop)) << "' height='" << coordinate(std::abs(base - barTop)) << "' class='"
            << (bar.highlighted ? "bar best" : "bar") << "'><title>" << htmlEscaped(bar.label) << ": "
            << htmlEscaped(bar.valueText.empty() ? formatSignificant(bar.value, 5) : bar.valueText)
            << "</title></rect>";
        if (bar.error > 0.0)
            svg << "<line x1='" << coordinate(centre) << "' x2='" << coordinate(centre) << "' y1='"
                << coordinate(y(saturated(bar.value - bar.error))) << "' y2='"
                << coordinate(y(saturated(bar.value + bar.error))) << "' class='error'/>";
    }
    svg << "</svg>";
    return svg.str();
}

std::string svgScatterPlot(const std::string &title, const std::vector<double> &actual,
                           const std::vector<double> &predicted, std::size_t maxPoints)
{
    std::ostringstream svg;
    header(svg, title);
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    for (std::size_t i = 0; i < actual.size(); ++i) {
        for (double value : {actual[i], predicted[i]}) {
            if (std::isfinite(value)) {
                low = std::min(low, value);
                high = std::max(high, value);
            }
        }
    }
    if (!(low < high)) {
        // One value (or none): centred on an axis of its own.
        const double centre = std::isfinite(low) ? low : 0.0;
        const double pad = std::max(1.0, std::abs(centre) * 1e-3);
        low = saturated(centre - pad);
        high = saturated(centre + pad);
    }
    const std::vector<double> ticks = niceTicks(low, high);
    const AxisRange axis = rangeShown(low, high, ticks);
    const auto x = [&axis](double value) { return columnOf(axis, value); };
    const auto y = [&axis](double value) { return rowOf(axis, value); };
    for (double tick : ticks) {
        gridLine(svg, y(tick), tickText(tick));
        xTickLabel(svg, x(tick), tick);
    }
    svg << "<line x1='" << coordinate(x(axis.low)) << "' y1='" << coordinate(y(axis.low)) << "' x2='"
        << coordinate(x(axis.high)) << "' y2='" << coordinate(y(axis.high)) << "' class='identity'/>";
    const std::size_t stride = std::max<std::size_t>(1, (actual.size() + maxPoints - 1) / maxPoints);
    for (std::size_t i = 0; i < actual.size(); i += stride) {
        if (!std::isfinite(actual[i]) || !std::isfinite(predicted[i]))
            continue;
        svg << "<circle cx='" << coordinate(x(actual[i])) << "' cy='" << coordinate(y(predicted[i]))
            << "' r='2' class='" << (predicted[i] < actual[i] ? "point under" : "point") << "'/>";
    }
    svg << "<text x='" << left + plotWidth / 2 << "' y='" << height - 14
        << "' text-anchor='middle' class='tick'>actual (MiB)</text><text transform='translate(14,"
        << coordinate(top + plotHeight / 2)
        << ") rotate(-90)' text-anchor='middle' class='tick'>predicted (MiB)</text>";
    // The key says what the colours and the dashed line mean, so no caption has to.
    svg << "<circle cx='300' cy='262' r='3' class='point under'/><text x='306' y='266' class='label'>under</text>"
           "<circle cx='350' cy='262' r='3' class='point'/><text x='356' y='266' class='label'>over</text>"
           "<line x1='18' x2='34' y1='262' y2='262' class='identity'/><text x='38' y='266' class='label'>y = x</text>";
    svg << "</svg>";
    return svg.str();
}

std::string svgLineChart(const std::string &title, const std::string &xLabel, const std::string &yLabel,
                         const std::vector<Curve> &curves)
{
    // Colours that stay apart for the usual handful of models (and in grey print).
    static constexpr const char *palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                              "#9467bd", "#8c564b", "#e377c2", "#17becf"};
    std::ostringstream svg;
    header(svg, title);
    double xLow = 0.0;
    double xHigh = 0.0;
    double yLow = 0.0;
    double yHigh = 0.0;
    const auto include = [&](double x, double y) {
        if (!std::isfinite(x) || !std::isfinite(y))
            return;
        xLow = std::min(xLow, x);
        xHigh = std::max(xHigh, x);
        yLow = std::min(yLow, y);
        yHigh = std::max(yHigh, y);
    };
    for (const auto &curve : curves) {
        for (std::size_t i = 0; i < curve.x.size() && i < curve.y.size(); ++i)
            include(curve.x[i], curve.y[i]);
        include(curve.markerX, curve.markerY);
        include(curve.referenceX, curve.referenceY);
    }
    giveWidth(xLow, xHigh);
    giveWidth(yLow, yHigh);
    const std::vector<double> xTicks = niceTicks(xLow, xHigh);
    const std::vector<double> yTicks = niceTicks(yLow, yHigh);
    const AxisRange xAxis = rangeShown(xLow, xHigh, xTicks);
    const AxisRange yAxis = rangeShown(yLow, yHigh, yTicks);
    const auto x = [&xAxis](double value) { return columnOf(xAxis, value); };
    const auto y = [&yAxis](double value) { return rowOf(yAxis, value); };
    for (double tick : yTicks)
        gridLine(svg, y(tick), tickText(tick));
    for (double tick : xTicks)
        xTickLabel(svg, x(tick), tick);
    for (std::size_t c = 0; c < curves.size(); ++c) {
        const Curve &curve = curves[c];
        const char *colour = palette[c % std::size(palette)];
        std::string points;
        for (std::size_t i = 0; i < curve.x.size() && i < curve.y.size(); ++i)
            if (std::isfinite(curve.x[i]) && std::isfinite(curve.y[i]))
                points += (points.empty() ? "" : " ") + coordinate(x(curve.x[i])) + ',' + coordinate(y(curve.y[i]));
        svg << "<polyline points='" << points << "' fill='none' stroke='" << colour
            << "' stroke-width='1.5' class='curve'><title>" << htmlEscaped(curve.label) << "</title></polyline>";
        if (std::isfinite(curve.markerX) && std::isfinite(curve.markerY))
            svg << "<circle cx='" << coordinate(x(curve.markerX)) << "' cy='" << coordinate(y(curve.markerY))
                << "' r='4' fill='" << colour << "' class='marker'><title>" << htmlEscaped(curve.label) << ": "
                << formatSignificant(curve.markerX, 4) << ", " << formatSignificant(curve.markerY, 3)
                << "</title></circle>";
        if (std::isfinite(curve.referenceX) && std::isfinite(curve.referenceY))
            svg << "<rect x='" << coordinate(x(curve.referenceX) - 3.5) << "' y='"
                << coordinate(y(curve.referenceY) - 3.5) << "' width='7' height='7' fill='none' stroke='" << colour
                << "' class='reference'/>";
        // The legend runs along the top right, one line per curve.
        const double legendY = top + 10.0 + 12.0 * static_cast<double>(c);
        svg << "<line x1='" << width - right - 120 << "' x2='" << width - right - 106 << "' y1='"
            << coordinate(legendY - 3) << "' y2='" << coordinate(legendY - 3) << "' stroke='" << colour
            << "' stroke-width='2'/><text x='" << width - right - 102 << "' y='" << coordinate(legendY)
            << "' class='label'>" << htmlEscaped(curve.label) << "</text>";
    }
    svg << "<text x='" << left + plotWidth / 2 << "' y='" << height - 14 << "' text-anchor='middle' class='tick'>"
        << htmlEscaped(xLabel) << "</text><text transform='translate(14," << coordinate(top + plotHeight / 2)
        << ") rotate(-90)' text-anchor='middle' class='tick'>" << htmlEscaped(yLabel) << "</text>";
    svg << "</svg>";
    return svg.str();
}

std::string svgResidualHistogram(const std::string &title, const ResidualHistogram &histogram)
{
    std::ostringstream svg;
    header(svg, title);
    double most = 0.0;
    for (double count : histogram.counts)
        most = std::max(most, count);
    double low = 0.0;
    double high = most;
    giveWidth(low, high);
    const std::vector<double> yTicks = niceTicks(low, high);
    const AxisRange yAxis = rangeShown(low, high, yTicks);
    const double reach = histogram.reach > 0.0 ? histogram.reach : 1.0;
    const AxisRange xAxis{-reach, reach};
    const auto x = [&xAxis](double value) { return columnOf(xAxis, value); };
    const auto y = [&yAxis](double value) { return rowOf(yAxis, value); };
    for (double tick : yTicks)
        gridLine(svg, y(tick), tickText(tick));
    for (double tick : {-reach, -reach / 2.0, 0.0, reach / 2.0, reach})
        xTickLabel(svg, x(tick), tick);
    const double binWidth = histogram.binWidth();
    for (std::size_t bin = 0; bin < histogram.counts.size(); ++bin) {
        const double binLeft = -reach + binWidth * static_cast<double>(bin);
        const double count = histogram.counts[bin];
        if (count <= 0.0)
            continue;
        // Zero is a bin edge, so a bin holds under- or over-predictions, never both.
        const bool under = binLeft + binWidth / 2.0 < 0.0;
        svg << "<rect x='" << coordinate(x(binLeft)) << "' width='" << coordinate(x(binLeft + binWidth) - x(binLeft))
            << "' y='" << coordinate(y(count)) << "' height='" << coordinate(y(0.0) - y(count)) << "' class='"
            << (under ? "bin under" : "bin") << "'><title>" << formatSignificant(binLeft, 4) << " to "
            << formatSignificant(binLeft + binWidth, 4) << " MiB: " << count << " jobs</title></rect>";
    }
    svg << "<line x1='" << coordinate(x(0.0)) << "' x2='" << coordinate(x(0.0)) << "' y1='" << top << "' y2='"
        << coordinate(y(0.0)) << "' class='identity'/>";
    svg << "<text x='" << left + plotWidth / 2 << "' y='" << height - 14
        << "' text-anchor='middle' class='tick'>predicted − actual (MiB)</text><text transform='translate(14,"
        << coordinate(top + plotHeight / 2) << ") rotate(-90)' text-anchor='middle' class='tick'>jobs</text>";
    svg << "<rect x='296' y='257' width='8' height='8' class='bin under'/><text x='308' y='266' "
           "class='label'>under</text><rect x='346' y='257' width='8' height='8' class='bin'/><text x='358' y='266' "
           "class='label'>over</text>";
    svg << "</svg>";
    return svg.str();
}

} // namespace gpumem::report
