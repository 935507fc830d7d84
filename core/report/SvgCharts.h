// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Charts as standalone SVG text for the HTML report (private to core/report).

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
};

// The width in SVG units that text takes at fontSize in the charts' sans-serif font: a
// generous estimate (0.62 em a character), used to keep labels apart.
double estimatedTextWidth(const std::string &text, double fontSize);

// A vertical bar chart with error bars, value labels, and a note in the title
// saying whether higher or lower is better. Labels too wide for their bars are
// slanted, the viewBox growing to hold them.
std::string svgBarChart(const std::string &title, const std::string &unit, bool higherIsBetter,
                        const std::vector<Bar> &bars);

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

} // namespace gpumem::report
