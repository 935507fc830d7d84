// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/ReportWriter.h"

#include "io/AtomicFileWriter.h"
#include "ui/widgets/QtText.h"

#include "ui/pdfreport/PdfReport.h"

#include <QBuffer>

#include <algorithm>
#include <sstream>

namespace gpumem::ui {

namespace {

QByteArray pngBytes(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

// The HTML export shows each chart at the size it was drawn (max-width keeps it within
// a narrow window): scaled down, the workbench's chart text would shrink below reading size.
std::string imageTag(const report::ReportChart &chart, const QImage &image)
{
    const int width = static_cast<int>(image.width() / image.devicePixelRatio());
    return "<img src=\"data:image/png;base64," + pngBytes(image).toBase64().toStdString() + "\" width=\"" +
           std::to_string(width) + "\" style=\"max-width: 100%; height: auto\" alt=\"" +
           coreText(qtText(chart.caption).toHtmlEscaped()) + "\">";
}

// The width (logical pixels) of the widest image.
int widestImage(const ReportContent &content)
{
    int widest = 0;
    for (const auto &[id, image] : content.images)
        widest = std::max(widest, static_cast<int>(image.width() / image.devicePixelRatio()));
    return widest;
}

} // namespace

void writeHtmlReport(const QString &path, const ReportContent &content)
{
    report::HtmlReportOptions options;
    // The grid's columns as wide as the images, so that none is shrunk below its text's size.
    options.chartMinWidth = std::max(options.chartMinWidth, widestImage(content));
    options.renderChart = [&](const report::ReportChart &chart, const std::string &svg) {
        const auto image = content.images.find(chart.id);
        return image == content.images.end() ? svg : imageTag(chart, image->second);
    };
    std::ostringstream html;
    report::writeHtmlReport(html, content.context, *content.result, options);
    io::writeFileAtomically(coreText(path), html.str());
}

void writePdfReport(const QString &path, const ReportContent &content)
{
    pdfreport::PdfCharts charts;
    charts.images = content.images;
    const QByteArray pdf = pdfreport::pdfReport(content.context, *content.result, charts, pdfreport::localPageSize());
    // Built in memory first, so that the file on disk is only ever the old or the complete new report.
    io::writeFileAtomically(coreText(path), std::string(pdf.constData(), static_cast<std::size_t>(pdf.size())));
}

} // namespace gpumem::ui
