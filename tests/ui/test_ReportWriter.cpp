// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison report on paper and in the workbench's HTML export (issue 25): the
// command line writes the PDF the workbench does; each page's ink lies within the page's
// margins at A4 and Letter, with the report's own charts and with the workbench's; a row
// of charts and its captions, and a table's row, are never cut by a page break; the report
// stays within a few pages, charts two to a row, the finding first; the HTML export shows
// the workbench's chart images at the size they were drawn. The page checks render with
// poppler's pdftoppm and pdftotext and are skipped where poppler is not installed.
#include "core/CommandLineRun.h"
#include "core/ComparisonFixtures.h"
#include "ui/app/ReportWriter.h"
#include "ui/charts/ComparisonCharts.h"
#include "ui/pdfreport/PageFlow.h"
#include "ui/pdfreport/PdfReport.h"

#include <QAbstractTextDocumentLayout>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QXYSeries>

#include <cmath>

using namespace gpumem;

namespace {

// Six models with long names, five folds and a calibrated bound: the widest tables and
// the most charts a report has.
evaluation::ExperimentResult comparison()
{
    const std::vector<std::pair<std::string, std::string>> names{{"bigru_transformer", "BiGRU-Transformer"},
                                                                 {"decision_tree", "Decision tree"},
                                                                 {"random_forest", "Random forest"},
                                                                 {"ridge", "Ridge regression"},
                                                                 {"allocator_sim", "CUDA allocator simulation"},
                                                                 {"formula", "Analytic formula"}};
    evaluation::ExperimentResult result;
    const int rows = 60;
    result.actual = Eigen::VectorXd::LinSpaced(rows, 100.0, 70000.0);
    for (int fold = 0; fold < 5; ++fold)
        result.splits.push_back({{}, {}});
    calibration::CalibrationSettings settings;
    settings.coverage = 0.9;
    result.calibration = settings;
    for (std::size_t m = 0; m < names.size(); ++m) {
        evaluation::ModelResult model;
        model.name = names[m].first;
        model.title = names[m].second;
        const double rmse = 1000.0 * static_cast<double>(m + 1);
        model.mean.rmse = rmse;
        model.mean.mse = 1092786966.0 * static_cast<double>(m + 1);
        model.mean.mae = 0.6 * rmse;
        model.mean.r2 = 0.9 - 0.05 * static_cast<double>(m);
        model.mean.underRate = 0.1 * static_cast<double>(m);
        model.standardDeviation = model.mean;
        model.predictions = result.actual * (0.9 + 0.04 * static_cast<double>(m));
        evaluation::ModelBound bound;
        bound.bound = {60, 0.08, 42574.0, 20574.0, 384.05, 120.0};
        bound.tenPercent = {60, 0.365, 9875.0, 5000.0, 10.0, 10.0};
        bound.fixedHeadroomPercent = 61.45;
        bound.fixedHeadroom = {60, 0.114, 23501.0, 20000.0, 61.45, 61.45};
        for (int step = 0; step <= 50; ++step)
            bound.curve.push_back({step * 1.0, 0.5 * std::exp(-step / 8.0), 1000.0 * step});
        model.bound = bound;
        result.models.push_back(model);
    }
    result.best = "bigru_transformer";
    return result;
}

report::ComparisonContext context()
{
    report::ComparisonContext context = tests::jobsComparisonContext("peak_allocated_mib", 60, 5);
    // A long list of features: the Environment table printed it a letter a line.
    for (const char *feature : {"family", "batch_size", "optimizer", "dtype", "steps", "layers", "d_model", "heads",
                                "feed_forward", "sequence_length", "vocabulary", "causal", "activation", "dropout",
                                "layer_sequence", "total_parameters", "total_activations"})
        context.features.emplace_back(feature);
    return context;
}

// An image as large as the workbench's charts in a report (520 × 340 logical pixels,
// drawn at twice that), inked to its very edges.
QImage workbenchSizedChart()
{
    QImage image(1040, 680, QImage::Format_RGB32);
    image.setDevicePixelRatio(2.0);
    image.fill(QColor(90, 90, 90));
    return image;
}

std::map<std::string, QImage> workbenchCharts(const evaluation::ExperimentResult &result)
{
    std::map<std::string, QImage> images;
    for (const char *metric : {"metric_mse", "metric_rmse", "metric_mae", "metric_r2", "metric_under_rate"})
        images.emplace(metric, workbenchSizedChart());
    for (const auto &model : result.models) {
        images.emplace("scatter_" + model.name, workbenchSizedChart());
        images.emplace("residuals_" + model.name, workbenchSizedChart());
    }
    images.emplace("bound_curves", workbenchSizedChart());
    return images;
}

// Writes bytes to a file in directory and returns its path.
QString savedPdf(const QTemporaryDir &directory, const QByteArray &bytes)
{
    const QString pdf = directory.filePath(QStringLiteral("report.pdf"));
    QFile file(pdf);
    if (file.open(QIODevice::WriteOnly))
        file.write(bytes);
    return pdf;
}

int pdfPages(const QByteArray &bytes)
{
    // Each page object says "/Type /Page" (the page tree "/Type /Pages").
    return static_cast<int>(
        QString::fromLatin1(bytes).count(QRegularExpression(QStringLiteral("/Type\\s*/Page(?!s)"))));
}

bool havePoppler()
{
    return !QStandardPaths::findExecutable(QStringLiteral("pdftoppm")).isEmpty() &&
           !QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty();
}

QString toolOutput(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    process.waitForFinished(120000);
    return QString::fromUtf8(process.readAllStandardOutput());
}

// Renders every page of pdf to grey images at dpi, in page order.
QList<QImage> renderedPages(const QString &pdf, int dpi)
{
    const QString prefix = pdf + QStringLiteral("-page");
    toolOutput(QStringLiteral("pdftoppm"),
               {QStringLiteral("-r"), QString::number(dpi), QStringLiteral("-gray"), pdf, prefix});
    QDir directory = QFileInfo(pdf).dir();
    QList<QImage> pages;
    for (const QString &name :
         directory.entryList({QFileInfo(prefix).fileName() + QStringLiteral("*.pgm")}, QDir::Files, QDir::Name))
        pages.push_back(QImage(directory.filePath(name)));
    return pages;
}

// Whether every dark pixel of page lies within margin pixels of each edge (give: a pixel of slack).
bool inkWithinMargins(const QImage &page, int margin, QString &where)
{
    const int give = 2;
    for (int y = 0; y < page.height(); ++y)
        for (int x = 0; x < page.width(); ++x)
            if (qGray(page.pixel(x, y)) < 200 && (x < margin - give || x >= page.width() - margin + give ||
                                                  y < margin - give || y >= page.height() - margin + give)) {
                where = QStringLiteral("ink at (%1, %2) of a %3 × %4 page")
                            .arg(x)
                            .arg(y)
                            .arg(page.width())
                            .arg(page.height());
                return false;
            }
    return true;
}

} // namespace

class TestReportWriter : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void commandLineWritesThePdf();
    void pagesHoldTheirContent_data();
    void pagesHoldTheirContent();
    void chartRowsAreNeverCut();
    void tableRowsAreNeverCut();
    void reportFitsFewPages_data();
    void reportFitsFewPages();
    void htmlShowsChartsAtTheirSize();
    void boundChartKeysEachModelOnce();
};

void TestReportWriter::commandLineWritesThePdf()
{
    QTemporaryDir directory;
    const QString pdf = directory.filePath(QStringLiteral("report.pdf"));
    pdfreport::enablePdfReports();
    const tests::Run run = tests::runGpumem(
        {"compare", QStringLiteral(GPUMEM_TEST_DATA_DIR "/jobs_training.csv").toStdString(), "--target", "memory_mib",
         "--models", "decision_tree,ridge", "--folds", "3", "--coverage", "0.8", "--report", pdf.toStdString()});
    QVERIFY2(run.exitCode == 0, run.err.c_str());
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.startsWith("%PDF-"));
    QVERIFY(bytes.trimmed().endsWith("%%EOF"));
    const int pages = pdfPages(bytes);
    QVERIFY2(pages >= 2, qPrintable(QString::number(pages)));
    if (!havePoppler())
        QSKIP("poppler's pdfinfo/pdftotext are not installed");
    const QString info = toolOutput(QStringLiteral("pdfinfo"), {pdf});
    QVERIFY2(info.contains(QRegularExpression(QStringLiteral("Pages:\\s+%1\\b").arg(pages))), qPrintable(info));
    const QString text = toolOutput(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    for (const char *expected : {"Peak GPU memory: model comparison", "Decision tree", "Ridge regression", "RMSE (MiB)",
                                 "MAE (MiB)", "Under-prediction", "jobs_training.csv", "Environment"})
        QVERIFY2(text.contains(QString::fromUtf8(expected)), expected);
}

void TestReportWriter::pagesHoldTheirContent_data()
{
    QTest::addColumn<int>("pageSize");
    QTest::addColumn<bool>("workbenchImages");
    QTest::newRow("A4, the report's charts") << static_cast<int>(QPageSize::A4) << false;
    QTest::newRow("Letter, the report's charts") << static_cast<int>(QPageSize::Letter) << false;
    QTest::newRow("A4, the workbench's charts") << static_cast<int>(QPageSize::A4) << true;
    QTest::newRow("Letter, the workbench's charts") << static_cast<int>(QPageSize::Letter) << true;
}

// Issue 25: the right-hand column of charts ran off the page, and headers broke inside words.
void TestReportWriter::pagesHoldTheirContent()
{
    QFETCH(int, pageSize);
    QFETCH(bool, workbenchImages);
    if (!havePoppler())
        QSKIP("poppler's pdftoppm/pdftotext are not installed");
    const evaluation::ExperimentResult result = comparison();
    pdfreport::PdfCharts charts;
    if (workbenchImages)
        charts.images = workbenchCharts(result);
    const QPageSize size(static_cast<QPageSize::PageSizeId>(pageSize));
    const QByteArray bytes = pdfreport::pdfReport(context(), result, charts, size);
    QTemporaryDir directory;
    const QString pdf = directory.filePath(QStringLiteral("report.pdf"));
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();

    const int dpi = 40;
    const QList<QImage> pages = renderedPages(pdf, dpi);
    QVERIFY(pages.size() >= 3);
    const QSize expected = size.sizePixels(dpi);
    const int margin = static_cast<int>(std::floor(15.0 / 25.4 * dpi));
    for (int index = 0; index < pages.size(); ++index) {
        QVERIFY(std::abs(pages[index].width() - expected.width()) <= 1);
        QString where;
        QVERIFY2(inkWithinMargins(pages[index], margin, where),
                 qPrintable(QStringLiteral("page %1: %2").arg(index + 1).arg(where)));
    }
    // Each column title comes out whole: none is broken inside a word.
    const QString text = toolOutput(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
    for (const char *word : {"Under-", "prediction", "over-", "allocation", "Percentile", "Shortfall", "headroom"})
        QVERIFY2(text.contains(QString::fromUtf8(word), Qt::CaseInsensitive), word);
    for (const auto &model : result.models)
        QVERIFY2(text.contains(QString::fromStdString(model.title)), model.title.c_str());
    // The features are one line of words, not a letter a line.
    QVERIFY(text.contains(QStringLiteral("family, batch_size, optimizer")));
}

// Issue 25: captions were separated from their charts at page breaks. A row of charts is
// put at every height on the first page in turn: where Qt alone leaves its caption on
// the next page, keepTogether moves the whole row there.
void TestReportWriter::chartRowsAreNeverCut()
{
    const auto cutRows = [](QTextDocument &document) {
        document.pageCount(); // finishes the layout
        int cut = 0;
        const double page = document.pageSize().height();
        for (QTextFrame *frame : document.rootFrame()->childFrames()) {
            const QRectF box = document.documentLayout()->frameBoundingRect(frame);
            cut += std::floor(box.top() / page) != std::floor((box.bottom() - 1.0) / page) ? 1 : 0;
        }
        return cut;
    };
    int cutByQt = 0;
    for (int spacer = 500; spacer <= 780; spacer += 4) {
        QTextDocument document;
        document.setDocumentMargin(0.0);
        document.setPageSize(QSizeF(600.0, 800.0));
        document.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart.png")), workbenchSizedChart());
        document.setHtml(QStringLiteral("<img src='chart.png' width='100' height='%1'><table width='100%'><tr><td>"
                                        "<img src='chart.png' width='280' height='175'><br>Caption one</td><td>"
                                        "<img src='chart.png' width='280' height='175'><br>Caption two</td></tr>"
                                        "</table><p>After.</p>")
                             .arg(spacer));
        cutByQt += cutRows(document);
        pdfreport::keepTogether(document);
        QVERIFY2(cutRows(document) == 0, qPrintable(QStringLiteral("a row below %1 px is cut").arg(spacer)));
    }
    QVERIFY2(cutByQt > 0, "some heights would cut the row without keepTogether");
}

// The worst-rows table ran over 3.5 pages with rows cut by page breaks: a row whose cells
// hold several lines is put at every height on the first page in turn; where Qt alone cuts
// it (it moves a row only when none of its cells' first lines fits), keepTogether moves
// it whole, with the rows before and after it in place.
void TestReportWriter::tableRowsAreNeverCut()
{
    int cutByQt = 0;
    for (int spacer = 600; spacer <= 790; spacer += 3) {
        QTextDocument document;
        document.setDocumentMargin(0.0);
        document.setPageSize(QSizeF(600.0, 800.0));
        document.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("spacer.png")), workbenchSizedChart());
        QString rows;
        for (int row = 0; row < 6; ++row)
            rows += QStringLiteral("<tr><td>model %1</td><td>27.59<br>± 1.752</td><td>needs ≥ 5<br>folds</td></tr>")
                        .arg(row);
        document.setHtml(QStringLiteral("<img src='spacer.png' width='10' height='%1'><table width='100%'><thead>"
                                        "<tr><th>Model</th><th>RMSE</th><th>p</th></tr></thead>%2</table><p>After.</p>")
                             .arg(spacer)
                             .arg(rows));
        const int before = pdfreport::cutTableRows(document);
        cutByQt += before;
        pdfreport::keepTogether(document);
        QVERIFY2(pdfreport::cutTableRows(document) == 0,
                 qPrintable(QStringLiteral("a row below %1 px is cut").arg(spacer)));
        QVERIFY(document.pageCount() <= 2);
        QVERIFY(document.toPlainText().contains(QStringLiteral("model 5")));
    }
    QVERIFY2(cutByQt > 0, "some heights would cut a row without keepTogether");
}

void TestReportWriter::reportFitsFewPages_data()
{
    QTest::addColumn<bool>("workbenchImages");
    QTest::newRow("the report's charts") << false;
    QTest::newRow("the workbench's charts") << true;
}

// The exported PDF ran to 9 pages, one chart to a row and 3.5 pages of worst rows. Six
// models with a calibrated bound, two charts to a row, 15 worst rows: at most 6 A4 pages.
void TestReportWriter::reportFitsFewPages()
{
    QFETCH(bool, workbenchImages);
    const evaluation::ExperimentResult result = comparison();
    pdfreport::PdfCharts charts;
    if (workbenchImages)
        charts.images = workbenchCharts(result);
    const QByteArray bytes = pdfreport::pdfReport(context(), result, charts, QPageSize(QPageSize::A4));
    const int pages = pdfPages(bytes);
    QVERIFY2(pages >= 4 && pages <= 6, qPrintable(QString::number(pages)));
    if (!havePoppler())
        QSKIP("poppler's pdftotext is not installed");
    QTemporaryDir directory;
    const QString pdf = savedPdf(directory, bytes);
    // Two charts to a row: the captions of a row's two charts share a line.
    const QString text = toolOutput(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("RMSE +MAE|MSE +RMSE"))), qPrintable(text));
    QVERIFY(
        text.contains(QRegularExpression(QStringLiteral("BiGRU-Transformer: residuals.*Decision tree: residuals"))));
    // The finding opens the first page.
    const QString first =
        toolOutput(QStringLiteral("pdftotext"), {QStringLiteral("-f"), QStringLiteral("1"), QStringLiteral("-l"),
                                                 QStringLiteral("1"), pdf, QStringLiteral("-")});
    QVERIFY2(first.simplified().contains(QStringLiteral("BiGRU-Transformer has the lowest RMSE")), qPrintable(first));
}

// Issue 25: the workbench's HTML showed its 800-pixel charts at 520, their text too small to read.
void TestReportWriter::htmlShowsChartsAtTheirSize()
{
    ui::ReportContent content;
    content.context = context();
    const auto result = std::make_shared<evaluation::ExperimentResult>(comparison());
    content.result = result;
    content.images = workbenchCharts(*result);
    QTemporaryDir directory;
    const QString path = directory.filePath(QStringLiteral("report.html"));
    ui::writeHtmlReport(path, content);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(file.readAll());
    const QRegularExpression image(QStringLiteral("<img src=\"data:image/png;base64,[^\"]*\" width=\"(\\d+)\""));
    int images = 0;
    for (auto match = image.globalMatch(html); match.hasNext(); ++images)
        QCOMPARE(match.next().captured(1).toInt(), 520);
    QCOMPARE(images, static_cast<int>(content.images.size()));
    // The grid's columns are as wide as the images, so none is shrunk; two fit side by side.
    QVERIFY(html.contains(QStringLiteral("minmax(min(520px, 100%), 1fr)")));
}

// Issue 25: the risk-versus-waste chart's legend had 18 entries (a curve and two markers
// per model) in near-identical colours. It names each model once, in colours far apart.
void TestReportWriter::boundChartKeysEachModelOnce()
{
    const evaluation::ExperimentResult result = comparison();
    // Legend entries are visible only once their chart is shown.
    QChartView view(ui::boundCurveChart(result, 0.9));
    view.resize(800, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QChart *chart = view.chart();
    QList<QColor> colours;
    QStringList names;
    for (QLegendMarker *marker : chart->legend()->markers())
        if (marker->isVisible()) {
            names << marker->label();
            auto *series = qobject_cast<QXYSeries *>(marker->series());
            QVERIFY(series);
            colours << series->color();
        }
    QCOMPARE(names.size(), static_cast<int>(result.models.size()));
    for (const auto &model : result.models)
        QVERIFY(names.contains(QString::fromStdString(model.title)));
    for (int a = 0; a < colours.size(); ++a)
        for (int b = a + 1; b < colours.size(); ++b) {
            const int distance = std::abs(colours[a].red() - colours[b].red()) +
                                 std::abs(colours[a].green() - colours[b].green()) +
                                 std::abs(colours[a].blue() - colours[b].blue());
            QVERIFY2(distance >= 90, qPrintable(names[a] + QStringLiteral(" and ") + names[b]));
        }
    QVERIFY(
        chart->title().replace(QStringLiteral("<br>"), QStringLiteral(" ")).contains(QStringLiteral("bound at 90%")));
}

QTEST_MAIN(TestReportWriter)
#include "test_ReportWriter.moc"
