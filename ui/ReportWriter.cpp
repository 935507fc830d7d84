#include "ui/ReportWriter.h"

#include "io/AtomicFileWriter.h"
#include "ui/QtText.h"

#include <QBuffer>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

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

QString figureName(std::size_t index)
{
    return QStringLiteral("figure%1.png").arg(index);
}

} // namespace

QString reportHtml(const ReportContent &content, bool embedImages)
{
    QString html =
        QStringLiteral("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>"
                       "<style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
                       "table{border-collapse:collapse;margin:0.5em 0}"
                       "td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}"
                       "th{background:#eee}td.name{text-align:left}.best{background:#d8f0d8;font-weight:bold}"
                       "figure{display:inline-block;margin:0.5em}figcaption{font-size:90%;color:#444}"
                       "</style></head><body>\n")
            .arg(content.title.toHtmlEscaped());
    html += QStringLiteral("<h1>%1</h1>\n<p>%2</p>\n")
                .arg(content.title.toHtmlEscaped(), content.created.toString(Qt::ISODate).toHtmlEscaped());
    html += QStringLiteral("<h2>Data</h2>\n") + content.datasetHtml;
    html += QStringLiteral("<h2>Settings</h2>\n") + content.settingsHtml;
    html += QStringLiteral("<h2>Metrics</h2>\n") + content.metricsHtml;
    html += QStringLiteral("<h2>Charts</h2>\n");
    for (std::size_t index = 0; index < content.figures.size(); ++index) {
        const ReportFigure &figure = content.figures[index];
        const QString source = embedImages ? QStringLiteral("data:image/png;base64,") +
                                                 QString::fromLatin1(pngBytes(figure.image).toBase64())
                                           : figureName(index);
        html += QStringLiteral("<figure><img src=\"%1\" width=\"%2\" alt=\"%3\"><figcaption>%3</figcaption></figure>\n")
                    .arg(source)
                    .arg(std::min(figure.image.width(), 520))
                    .arg(figure.caption.toHtmlEscaped());
    }
    html += QStringLiteral("<h2>Worst under-predictions</h2>\n") + content.worstHtml;
    html += QStringLiteral("<h2>Neural network hyperparameters</h2>\n") + content.hyperparametersHtml;
    html += QStringLiteral("<h2>Library versions</h2>\n") + content.versionsHtml;
    html += QStringLiteral("</body></html>\n");
    return html;
}

void writeHtmlReport(const QString &path, const ReportContent &content)
{
    io::writeFileAtomically(coreText(path), reportHtml(content, true).toStdString());
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
        writer.setTitle(content.title);
        writer.setCreator(QStringLiteral("GPU Memory Workbench"));
        writer.setResolution(150);
        QTextDocument document;
        for (std::size_t index = 0; index < content.figures.size(); ++index)
            document.addResource(QTextDocument::ImageResource, QUrl(figureName(index)), content.figures[index].image);
        document.setHtml(reportHtml(content, false));
        document.print(&writer);
    }
    // Built in memory first, so that the file on disk is only ever the old or the complete new report.
    io::writeFileAtomically(coreText(path), std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

} // namespace gpumem::ui
