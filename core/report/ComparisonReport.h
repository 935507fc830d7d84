// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"
#include "io/Json.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace gpumem::report {

// What a comparison ran on, for the report's header.
struct ComparisonContext
{
    std::string dataset; // the data file as the user named it
    std::string target;  // the target column
    std::size_t rows = 0;
    std::vector<std::string> features; // input columns (numeric, categorical, sequence), in file order
    int folds = 0;                     // splits per repetition: k for k-fold, 1 for a hold-out
    int repeats = 1;                   // repetitions of the k folds, each with its own seed
    std::string groupBy;               // the column whose values the folds keep whole, or empty
    double testFraction = 0.0;         // the hold-out fraction; 0 for k-fold
    std::uint64_t seed = 0;
    // The file line of each dataset row, for naming the worst under-predicted jobs;
    // empty names them by row number.
    std::vector<std::int64_t> rowLines;
    // What each dataset row's job is called (data::jobNames), or empty.
    std::vector<std::string> rowNames;
};

// The report's header members: {"dataset", "target", "rows", "features", "folds",
// "group_by" (null when the folds are not grouped), "test_fraction", "seed"} (the rows'
// lines and names are not part of it; the repetitions are the experiment's "repeats").
void to_json(io::Json &json, const ComparisonContext &context);
// Reads what to_json() wrote (repeats, row lines and names are left as they are:
// the experiment and the data hold them). Throws io::InputError, without a file,
// when a member is missing or of the wrong kind.
void from_json(const io::Json &json, ComparisonContext &context);

// How many rows the reports' table of worst under-predictions holds: the largest
// shortfalls of any model, so that the table stays within a page.
constexpr std::size_t reportedUnderPredictions = 15;

// The report formats, chosen by the file's extension.
enum class ReportFormat
{
    Json,     // the stable schema of docs/comparison-report.md
    Markdown, // ready-to-paste tables in the paper's layout, best values in bold
    Csv,      // one row per model and fold (plus mean and std rows)
    Html,     // a self-contained page with tables and SVG charts
    Pdf,      // the HTML report paginated; needs the writer a Qt build registers
};

// Writes the PDF report of result to out. core has no PDF writer of its own: the
// Qt library pdfreport/ registers one (setPdfReportWriter) in the programs built with Qt.
using PdfReportWriter = std::function<void(std::ostream &out, const ComparisonContext &context,
                                           const evaluation::ExperimentResult &result)>;

// Installs the writer of ReportFormat::Pdf, for the whole process; call before any report
// is written (not thread-safe against them).
void setPdfReportWriter(PdfReportWriter writer);

// Returns the format for path's extension (.json, .md, .csv, .html/.htm, any case; .pdf
// once a PDF writer is installed). Throws io::InputError naming the path for any other
// extension, and for .pdf without a writer (a build without Qt), in one line.
ReportFormat reportFormatForPath(const std::string &path);

// Writes the report of result in format to out.
void writeReport(std::ostream &out, ReportFormat format, const ComparisonContext &context,
                 const evaluation::ExperimentResult &result);

// Writes the report to path in the format its extension names, atomically
// (a temporary file renamed into place). Throws io::InputError when it cannot.
void saveReport(const std::string &path, const ComparisonContext &context, const evaluation::ExperimentResult &result);

// A chart of the HTML report: an id another renderer can recognise it by
// ("metric_rmse", "scatter_random_forest") and its caption.
struct ReportChart
{
    std::string id;
    std::string caption;
};

// A chart of the report and its SVG drawing.
struct ReportDrawing
{
    ReportChart chart;
    std::string svg;
};

// The report's bar chart of each headline metric ("metric_rmse"), with fold error bars.
// Bars that would look equal are drawn so that their differences show: R² as 1 − R² on a
// logarithmic axis (each bar labelled with its R²), other metrics on an axis zoomed onto
// the values when they all sit near the top.
std::vector<ReportDrawing> metricCharts(const evaluation::ExperimentResult &result);
// Predicted against actual per model ("scatter_random_forest"), out of fold.
std::vector<ReportDrawing> scatterCharts(const evaluation::ExperimentResult &result);
// The histogram of each model's residuals, predicted − actual ("residuals_random_forest").
std::vector<ReportDrawing> residualCharts(const evaluation::ExperimentResult &result);

// How writeHtmlReport() lays the page out and draws its charts.
struct HtmlReportOptions
{
    // Returns the HTML that stands for chart, given the SVG the page would embed;
    // unset embeds the SVG. The workbench puts the images of the charts on screen here.
    std::function<std::string(const ReportChart &chart, const std::string &svg)> renderChart;
    // For paginated renderers without CSS grids (Qt's rich text, printing): charts
    // chartsPerRow to a row, each row a plain table of its own, tables at full width.
    bool printable = false;
    int chartsPerRow = 2;
    // On screen: the narrowest column of the charts' grid, in CSS pixels; as wide as
    // the charts' images, it shows them one to a row at the size they were drawn.
    int chartMinWidth = 360;
};

// The per-format writers writeReport() dispatches to.
void writeJsonReport(std::ostream &out, const ComparisonContext &context, const evaluation::ExperimentResult &result);
void writeMarkdownReport(std::ostream &out, const ComparisonContext &context,
                         const evaluation::ExperimentResult &result);
void writeCsvReport(std::ostream &out, const ComparisonContext &context, const evaluation::ExperimentResult &result);
void writeHtmlReport(std::ostream &out, const ComparisonContext &context, const evaluation::ExperimentResult &result,
                     const HtmlReportOptions &options = {});

// Returns "5-fold cross-validation (seed 42)", "3 × 5-fold cross-validation, folds
// grouped by model (seed 42)" or "hold-out of 20% of the rows (seed 42)".
std::string describeSplitting(const ComparisonContext &context);

// Names a dataset row for people: "r17 (line 18)" with a job name, "line 18" (its
// line in the file) without one, or "row 17".
std::string jobName(const ComparisonContext &context, Eigen::Index row);

// Returns the test that the report shows for model against the best one, or
// nullptr (the best model itself, or a run without significance tests).
const evaluation::PairedTest *reportedTest(const evaluation::ExperimentResult &result, const std::string &model);

// The significance cell of model in every report and on the Compare page: "best",
// "0.0123 *" (the reported test's p and stars), "needs ≥ 5 folds" when the folds were
// too few for any test to be shown (evaluation::minimumReportedPairs), or "–".
std::string significanceText(const evaluation::ExperimentResult &result, const std::string &model);

} // namespace gpumem::report
