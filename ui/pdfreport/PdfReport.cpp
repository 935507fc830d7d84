// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pdfreport/PdfReport.h"

#include "ui/pdfreport/ChartImages.h"
#include "ui/pdfreport/OffscreenGui.h"
#include "ui/pdfreport/PageFlow.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QGuiApplication>
#include <QLocale>
#include <QPdfWriter>
#include <QScreen>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace gpumem::pdfreport {

namespace {

constexpr int resolution = 300;      // device pixels per inch of the layout; text and lines stay vectors
constexpr double marginMm = 15.0;    // on every side
constexpr double footerInches = 0.3; // the page number's band under the text
constexpr double svgScale = 2.5;     // the report's own charts, rasterised at about 300 dpi on paper

double devicePixels(double points)
{
    return points * resolution / 72.0;
}

// The width attribute of a chart's <img>, in the pixels Qt's text layout reads it in: it
// scales image sizes by the paint device's resolution over the screen's (96 offscreen).
double imageWidthAttribute(double bodyWidth, int perRow)
{
    // The printable style sheet pads a cell by 3 pt on each side (6 pt allowed); 2 px of spacing around cells.
    const double cellChrome = 2.0 * devicePixels(6.0) + 4.0;
    const double width = (bodyWidth - 4.0) / perRow - cellChrome;
    const QScreen *screen = QGuiApplication::primaryScreen();
    const double screenDpi = screen ? std::round(screen->logicalDotsPerInchY()) : 96.0;
    return std::floor(0.98 * width * screenDpi / resolution);
}

std::string imageTag(const QString &name, double width, const QImage &image)
{
    const double height = image.width() > 0 ? std::floor(width * image.height() / image.width()) : width;
    return "<img src=\"" + name.toStdString() + "\" width=\"" + std::to_string(static_cast<int>(width)) +
           "\" height=\"" + std::to_string(static_cast<int>(height)) + "\">";
}

} // namespace

QPageSize localPageSize()
{
    return QLocale().measurementSystem() == QLocale::ImperialUSSystem ? QPageSize(QPageSize::Letter)
                                                                      : QPageSize(QPageSize::A4);
}

QByteArray pdfReport(const report::ComparisonContext &context, const evaluation::ExperimentResult &result,
                     const PdfCharts &charts, const QPageSize &pageSize)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setPageSize(pageSize);
    writer.setPageMargins(QMarginsF(marginMm, marginMm, marginMm, marginMm), QPageLayout::Millimeter);
    writer.setResolution(resolution);
    writer.setTitle(QStringLiteral("GPU memory model comparison"));
    writer.setCreator(QStringLiteral("GPU Memory Workbench"));

    // Laid out on the writer itself, so that points, pixels and page breaks are the page's.
    QTextDocument document;
    document.documentLayout()->setPaintDevice(&writer);
    document.setDocumentMargin(0.0);
    document.setDefaultFont(QFont(QStringLiteral("sans-serif"), 9));
    const QRectF body = writer.pageLayout().paintRectPixels(resolution);
    const double footer = footerInches * resolution;
    document.setPageSize(QSizeF(body.width(), body.height() - footer));

    report::HtmlReportOptions options;
    options.printable = true;
    options.chartsPerRow = std::max(1, charts.perRow);
    const double imageWidth = imageWidthAttribute(body.width(), options.chartsPerRow);
    int figure = 0;
    options.renderChart = [&](const report::ReportChart &chart, const std::string &svg) {
        const auto found = charts.images.find(chart.id);
        const QImage image = found != charts.images.end() ? found->second : svgImage(svg, svgScale);
        if (image.isNull())
            return std::string();
        const QString name = QStringLiteral("chart%1.png").arg(figure++);
        document.addResource(QTextDocument::ImageResource, QUrl(name), image);
        return imageTag(name, imageWidth, image);
    };
    std::ostringstream html;
    report::writeHtmlReport(html, context, result, options);
    document.setHtml(QString::fromStdString(html.str()));
    keepTogether(document);
    drawPages(document, writer, footer);
    return bytes;
}

void enablePdfReports()
{
    report::setPdfReportWriter(
        [](std::ostream &out, const report::ComparisonContext &context, const evaluation::ExperimentResult &result) {
            ensureGuiApplication();
            const QByteArray pdf = pdfReport(context, result, PdfCharts{}, localPageSize());
            out.write(pdf.constData(), pdf.size());
        });
}

} // namespace gpumem::pdfreport
