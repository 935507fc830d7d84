#pragma once

// Charts as standalone SVG text for the HTML report (private to core/report).

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

// A vertical bar chart with error bars, value labels, and a note in the title
// saying whether higher or lower is better.
std::string svgBarChart(const std::string &title, const std::string &unit, bool higherIsBetter,
                        const std::vector<Bar> &bars);

// Predicted against actual values with the y = x line; points beyond maxPoints
// are thinned evenly so the page stays small.
std::string svgScatterPlot(const std::string &title, const std::vector<double> &actual,
                           const std::vector<double> &predicted, std::size_t maxPoints = 1500);

} // namespace gpumem::report
