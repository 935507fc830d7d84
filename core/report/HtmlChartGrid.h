// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"
#include "report/ComparisonReport.h"

#include <ostream>

namespace gpumem::report {

// Lays the HTML report's charts out: a CSS grid on screen; on paper, each row of charts is
// a table of its own with the captions in the charts' cells, so that a paginator can keep
// a row whole. Closes the grid (and fills a last, short row) when destroyed.
class HtmlChartGrid : io::NonCopyable
{
  public:
    HtmlChartGrid(std::ostream &out, const HtmlReportOptions &options);
    ~HtmlChartGrid();

    // Adds the chart, drawn by the options' renderChart when it has one.
    void add(const ReportDrawing &drawing);

  private:
    std::ostream &mOut;
    const HtmlReportOptions &mOptions;
    int mColumns;
    int mCount = 0;
};

} // namespace gpumem::report
