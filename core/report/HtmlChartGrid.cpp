// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/HtmlChartGrid.h"

#include "report/ReportText.h"

#include <algorithm>

namespace gpumem::report {

HtmlChartGrid::HtmlChartGrid(std::ostream &out, const HtmlReportOptions &options)
    : mOut(out)
    , mOptions(options)
    , mColumns(std::max(1, options.chartsPerRow))
{
    if (!mOptions.printable)
        mOut << "<div class='charts' style='grid-template-columns: repeat(auto-fill, minmax(min("
             << mOptions.chartMinWidth << "px, 100%), 1fr))'>\n";
}

HtmlChartGrid::~HtmlChartGrid()
{
    if (!mOptions.printable) {
        mOut << "</div>\n";
        return;
    }
    if (mCount % mColumns == 0)
        return;
    for (int empty = mCount % mColumns; empty < mColumns; ++empty)
        mOut << "<td></td>";
    mOut << "</tr></table>\n";
}

void HtmlChartGrid::add(const ReportDrawing &drawing)
{
    const std::string html = mOptions.renderChart ? mOptions.renderChart(drawing.chart, drawing.svg) : drawing.svg;
    if (!mOptions.printable) {
        mOut << "<figure>" << html << "<figcaption class='note'>" << htmlEscaped(drawing.chart.caption)
             << "</figcaption></figure>\n";
        return;
    }
    if (mCount % mColumns == 0)
        mOut << "<table class='charts' width='100%'><tr>";
    mOut << "<td width='" << 100 / mColumns << "%'>" << html << "<br><span class='note'>"
         << htmlEscaped(drawing.chart.caption) << "</span></td>";
    if (++mCount % mColumns == 0)
        mOut << "</tr></table>\n";
}

} // namespace gpumem::report
