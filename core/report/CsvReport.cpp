// The comparison report as CSV: one row per model and fold, then a "mean" and a
// "std" row per model, so a spreadsheet can chart any metric.
#include "report/ComparisonReport.h"

#include "io/NumberText.h"
#include "report/ReportText.h"

#include <charconv>
#include <cmath>

namespace gpumem::report {

namespace {

void writeRow(std::ostream &out, const evaluation::ModelResult &model, const std::string &fold,
              const evaluation::RegressionMetrics &metrics, double trainSeconds, double predictSeconds)
{
    out << csvField(model.name) << ',' << csvField(model.title) << ',' << fold;
    for (const auto &metric : evaluation::metricDescriptions())
        out << ',' << io::csvNumber(metrics.*metric.member);
    out << ',' << io::csvNumber(trainSeconds) << ',' << io::csvNumber(predictSeconds) << '\n';
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
