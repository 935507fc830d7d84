// The comparison report as CSV: one row per model and fold, then a "mean" and a
// "std" row per model, so a spreadsheet can chart any metric.
#include "report/ComparisonReport.h"

#include "report/ReportText.h"

#include <charconv>
#include <cmath>

namespace gpumem::report {

namespace {

std::string number(double value)
{
    if (std::isnan(value))
        return "";
    char text[32];
    const auto result = std::to_chars(text, text + sizeof text, value);
    return std::string(text, result.ptr);
}

void writeRow(std::ostream &out, const evaluation::ModelResult &model, const std::string &fold,
              const evaluation::RegressionMetrics &metrics, double trainSeconds, double predictSeconds)
{
    out << csvField(model.name) << ',' << csvField(model.title) << ',' << fold;
    for (const auto &metric : evaluation::metricDescriptions())
        out << ',' << number(metrics.*metric.member);
    out << ',' << number(trainSeconds) << ',' << number(predictSeconds) << '\n';
}

} // namespace

void writeCsvReport(std::ostream &out, const ComparisonContext &, const evaluation::ExperimentResult &result)
{
    out << "model,title,fold";
    for (const auto &metric : evaluation::metricDescriptions())
        out << ',' << metric.key;
    out << ",train_seconds,predict_seconds\n";
    for (const auto &model : result.models) {
        for (const auto &fold : model.folds)
            writeRow(out, model, std::to_string(fold.fold + 1), fold.metrics, fold.trainSeconds, fold.predictSeconds);
        writeRow(out, model, "mean", model.mean, model.trainSeconds / static_cast<double>(model.folds.size()),
                 model.predictSeconds / static_cast<double>(model.folds.size()));
        writeRow(out, model, "std", model.standardDeviation, std::nan(""), std::nan(""));
    }
}

} // namespace gpumem::report
