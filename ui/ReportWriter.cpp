// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ReportWriter.h"

#include "io/AtomicFileWriter.h"
#include "ui/QtText.h"

#include <QBuffer>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

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

std::string imageTag(const std::string &source, const report::ReportChart &chart, int width)
{
    return "<img src=\"" + source + "\" width=\"" + std::to_string(width) + "\" alt=\"" +
           coreText(qtText(chart.caption).toHtmlEscaped()) + "\">";
}

// Core's report, with each chart the workbench shows replaced by renderImage's tag for it.
std::string reportHtml(const ReportContent &content, bool printable,
                       const std::function<std::string(const report::ReportChart &, const QImage &)> &renderImage)
{
    report::HtmlReportOptions options;
    options.printable = printable;
    options.renderChart = [&](const report::ReportChart &chart, const std::string &svg) {
        const auto image = content.images.find(chart.id);
        return image == content.images.end() ? svg : renderImage(chart, image->second);
    };
    std::ostringstream html;
    report::writeHtmlReport(html, content.context, *content.result, options);
    return html.str();
}

} // namespace

void writeHtmlReport(const QString &path, const ReportContent &content)
{
    const std::string html = reportHtml(content, false, [](const report::ReportChart &chart, const QImage &image) {
        return imageTag("data:image/png;base64," + pngBytes(image).toBase64().toStdString(), chart, 520);
    });
    io::writeFileAtomically(coreText(path), html);
}

void writePdfReport(const QString &path, const ReportContent &content)
{
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter writer(&buffer);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setTitle(QObject::tr("GPU memory model comparison"));
        writer.setCreator(QStringLiteral("GPU Memory Workbench"));
        writer.setResolution(150);
        QTextDocument document;
        int figure = 0;
        const std::string html = reportHtml(content, true, [&](const report::ReportChart &chart, const QImage &image) {
            const std::string name = "figure" + std::to_string(figure++) + ".png";
            document.addResource(QTextDocument::ImageResource, QUrl(qtText(name)), image);
            // Qt lays the page out at 96 px per inch: two of these fill the 180 mm between A4's margins.
            return imageTag(name, chart, 330);
        });
        document.setHtml(qtText(html));
        // A document without a page size is laid out on the printer's pages, with their numbers at the foot.
        document.print(&writer);
    }
    // Built in memory first, so that the file on disk is only ever the old or the complete new report.
    io::writeFileAtomically(coreText(path), std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

} // namespace gpumem::ui
