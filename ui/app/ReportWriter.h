// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/ComparisonReport.h"

#include <QImage>
#include <QString>

#include <map>
#include <memory>
#include <string>

namespace gpumem::ui {

// What a report of the comparison on show needs: core's report of it (the same
// content as `gpumem compare --report`) and images of its charts by report chart id
// ("metric_rmse", "scatter_random_forest", "residuals_ridge"), drawn in place of the
// report's own SVG charts (see comparisonReportContent).
struct ReportContent
{
    report::ComparisonContext context;
    std::shared_ptr<const evaluation::ExperimentResult> result;
    std::map<std::string, QImage> images;
};

// Writes core's HTML report with the chart images embedded at the size they were
// drawn, atomically. Throws io::InputError on failure.
void writeHtmlReport(const QString &path, const ReportContent &content);

// Writes the same report as a PDF through the writer `gpumem compare --report x.pdf`
// uses (pdfreport::pdfReport), on the locale's page size (A4 or Letter), with the chart
// images, atomically. Throws io::InputError on failure.
void writePdfReport(const QString &path, const ReportContent &content);

} // namespace gpumem::ui
