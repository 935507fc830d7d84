#pragma once

#include <QDateTime>
#include <QImage>
#include <QString>

#include <vector>

namespace gpumem::ui {

// One chart of a report, rendered.
struct ReportFigure
{
    QString caption;
    QImage image;
};

// Everything a comparison report shows, as HTML fragments and images, gathered
// by the compare page so that the writers only lay it out.
struct ReportContent
{
    QString title;
    QDateTime created;
    QString datasetHtml;         // file, rows, target, features
    QString settingsHtml;        // folds or hold-out, seed, models
    QString hyperparametersHtml; // name = value of the neural network
    QString metricsHtml;         // the metrics table
    QString worstHtml;           // the worst under-predictions
    QString versionsHtml;        // library versions
    std::vector<ReportFigure> figures;
};

// Returns the report as one HTML document; images are embedded as data URLs
// when embedImages, else referenced as figureN.png for a QTextDocument resource.
QString reportHtml(const ReportContent &content, bool embedImages);

// Writes a self-contained HTML report, atomically. Throws io::InputError on failure.
void writeHtmlReport(const QString &path, const ReportContent &content);
// Writes an A4 PDF report with the same content, atomically. Throws io::InputError on failure.
void writePdfReport(const QString &path, const ReportContent &content);

} // namespace gpumem::ui
