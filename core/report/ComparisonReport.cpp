// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/ComparisonReport.h"

#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "report/ReportText.h"
#include "report/SignificanceLegend.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace gpumem::report {

namespace {

PdfReportWriter &pdfReportWriter()
{
    static PdfReportWriter writer;
    return writer;
}

} // namespace

void setPdfReportWriter(PdfReportWriter writer)
{
    pdfReportWriter() = std::move(writer);
}

ReportFormat reportFormatForPath(const std::string &path)
{
    const std::size_t dot = path.find_last_of('.');
    const std::size_t slash = path.find_last_of('/');
    std::string extension;
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
        extension = path.substr(dot + 1);
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension == "json")
        return ReportFormat::Json;
    if (extension == "md" || extension == "markdown")
        return ReportFormat::Markdown;
    if (extension == "csv")
        return ReportFormat::Csv;
    if (extension == "html" || extension == "htm")
        return ReportFormat::Html;
    const bool pdf = static_cast<bool>(pdfReportWriter());
    if (extension == "pdf") {
        if (pdf)
            return ReportFormat::Pdf;
        throw io::InputError(path, 0, 0,
                             "PDF reports need gpumem built with Qt (GPUMEM_BUILD_GUI=ON); name the file .json, .md, "
                             ".csv or .html");
    }
    throw io::InputError(path, 0, 0,
                         pdf ? "unknown report format: name the file .json, .md, .csv, .html or .pdf"
                             : "unknown report format: name the file .json, .md, .csv or .html");
}

void writeReport(std::ostream &out, ReportFormat format, const ComparisonContext &context,
                 const evaluation::ExperimentResult &result)
{
    switch (format) {
    case ReportFormat::Json: writeJsonReport(out, context, result); return;
    case ReportFormat::Markdown: writeMarkdownReport(out, context, result); return;
    case ReportFormat::Csv: writeCsvReport(out, context, result); return;
    case ReportFormat::Html: writeHtmlReport(out, context, result); return;
    case ReportFormat::Pdf:
        if (!pdfReportWriter())
            throw io::InputError("PDF reports need gpumem built with Qt (GPUMEM_BUILD_GUI=ON)");
        pdfReportWriter()(out, context, result);
        return;
    }
}

void saveReport(const std::string &path, const ComparisonContext &context, const evaluation::ExperimentResult &result)
{
    const ReportFormat format = reportFormatForPath(path);
    std::ostringstream text;
    writeReport(text, format, context, result);
    io::writeFileAtomically(path, text.str());
}

std::string describeSplitting(const ComparisonContext &context)
{
    const std::string seed = " (seed " + std::to_string(context.seed) + ")";
    if (context.testFraction > 0.0) {
        std::ostringstream percent;
        percent << std::round(context.testFraction * 1000.0) / 10.0;
        return "hold-out of " + percent.str() + "% of the rows" + seed;
    }
    const std::string repeats = context.repeats > 1 ? std::to_string(context.repeats) + " × " : "";
    const std::string grouped = context.groupBy.empty() ? "" : ", folds grouped by " + context.groupBy;
    return repeats + std::to_string(context.folds) + "-fold cross-validation" + grouped + seed;
}

std::string jobName(const ComparisonContext &context, Eigen::Index row)
{
    const auto index = static_cast<std::size_t>(row);
    const std::string line = index < context.rowLines.size() ? "line " + std::to_string(context.rowLines[index])
                                                             : "row " + std::to_string(row + 1);
    return index < context.rowNames.size() && !context.rowNames[index].empty()
               ? context.rowNames[index] + " (" + line + ")"
               : line;
}

const evaluation::PairedTest *reportedTest(const evaluation::ExperimentResult &result, const std::string &model)
{
    for (const auto &test : result.significance)
        if (test.model == model && test.reported)
            return &test;
    return nullptr;
}

std::string significanceText(const evaluation::ExperimentResult &result, const std::string &model)
{
    if (model == result.best)
        return "best";
    if (const auto *test = reportedTest(result, model)) {
        const std::string stars = significanceStars(test->pValue);
        return formatPValue(test->pValue) + (stars.empty() ? "" : " " + stars);
    }
    const bool tooFew = std::any_of(result.significance.begin(), result.significance.end(),
                                    [&model](const evaluation::PairedTest &test) { return test.model == model; });
    return tooFew ? "needs ≥ " + std::to_string(evaluation::minimumReportedPairs) + " folds" : "–";
}

} // namespace gpumem::report
