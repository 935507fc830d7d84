// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Charts as standalone SVG text for the HTML report (private to core/report).

#include "report/ResidualHistogram.h"

#include <limits>
#include <string>
#include <vector>

namespace gpumem::report {

struct Bar
{
    std::string label;
    double value = 0.0;
    double error = 0.0; // half-length of the error bar; 0 draws none
    bool highlighted = false;
    std::string valueText; // written under the bar instead of value, e.g. R² where the bar shows 1 − R²
};

// How a bar chart's value axis runs.
enum class BarScale
{
    Linear,      // from zero, or zoomed onto the values when they all sit near the top
    Logarithmic, // whole decades, for values that differ by orders of magnitude (1 − R²); linear when none is positive
};

// The width in SVG units that text takes at fontSize in the charts' sans-serif font: a
// generous estimate (0.62 em a character), used to keep labels apart.
double estimatedTextWidth(const std::string &text, double fontSize);

// A vertical bar chart with error bars, value labels, and a note in the title
// saying whether higher or lower is better. Labels too wide for their bars are
// slanted, the viewBox growing to hold them.
std::string svgBarChart(const std::string &title, const std::string &unit, bool higherIsBetter,
                        const std::vector<Bar> &bars, BarScale scale = BarScale::Linear);

// Predicted against actual values with the y = x line; points beyond maxPoints
// are thinned evenly so the page stays small.
std::string svgScatterPlot(const std::string &title, const std::vector<double> &actual,
                           const std::vector<double> &predicted, std::size_t maxPoints = 1500);

// One line of a line chart, with up to two highlighted points on or near it.
struct Curve
{
    std::string label;
    std::vector<double> x;
    std::vector<double> y;
    double markerX = std::numeric_limits<double>::quiet_NaN(); // a filled circle, e.g. the chosen coverage
    double markerY = std::numeric_limits<double>::quiet_NaN();
    double referenceX = std::numeric_limits<double>::quiet_NaN(); // an open square, e.g. a fixed-headroom rule
    double referenceY = std::numeric_limits<double>::quiet_NaN();
};

// Lines of y against x, one colour per curve, with a legend and axis labels;
// non-finite points are skipped.
std::string svgLineChart(const std::string &title, const std::string &xLabel, const std::string &yLabel,
                         const std::vector<Curve> &curves);

// The histogram's bins as bars over predicted − actual (MiB), under-predictions (left of
// zero) in red, the others in blue, with a key and a line at zero.
std::string svgResidualHistogram(const std::string &title, const ResidualHistogram &histogram);

} // namespace gpumem::report
