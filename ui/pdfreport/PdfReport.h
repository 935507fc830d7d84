// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "report/ComparisonReport.h"

#include <QByteArray>
#include <QImage>
#include <QPageSize>

#include <map>
#include <string>

namespace gpumem::pdfreport {

// The page size of the user's locale: Letter where US measurements are used, A4 elsewhere.
QPageSize localPageSize();

// How the charts of a PDF report are drawn and laid out.
struct PdfCharts
{
    // Images that replace the report's own SVG charts, by report chart id
    // ("metric_rmse", "scatter_random_forest", "residuals_ridge"): the workbench's charts,
    // drawn at about 520 × 340 logical pixels so that their text stays readable at half a
    // page's width.
    std::map<std::string, QImage> images;
    // Charts side by side.
    int perRow = 2;
};

// Returns the comparison report as a PDF (15 mm margins, "page / pages" at each foot):
// core's printable HTML report laid out by Qt on pages of pageSize, a row of charts and
// its captions or a table's row never cut by a page break, no heading alone at a page's foot. The same
// for `gpumem compare --report x.pdf` and the workbench's export. Needs a
// QGuiApplication; call on the main thread.
QByteArray pdfReport(const report::ComparisonContext &context, const evaluation::ExperimentResult &result,
                     const PdfCharts &charts, const QPageSize &pageSize);

// Installs pdfReport() as core's writer of .pdf reports (report::setPdfReportWriter):
// the report's own charts on the locale's page size, a QGuiApplication started on the
// offscreen platform when none runs. `gpumem` calls it first thing when built with Qt.
void enablePdfReports();

} // namespace gpumem::pdfreport
