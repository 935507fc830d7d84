// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison report as CSV: one row per model and fold, then a "mean" and a
// "std" row per model, so a spreadsheet can chart any metric.
#include "report/ComparisonReport.h"

#include "io/NumberText.h"
#include "report/ReportText.h"

#include <charconv>
#include <cmath>
#include <string>

namespace gpumem::report {

namespace {

constexpr const char *boundHeader = ",bound_under_prediction_rate,bound_mean_over_allocation_mib,"
                                    "bound_median_over_allocation_mib,bound_mean_over_allocation_percent,"
                                    "ten_percent_under_prediction_rate,ten_percent_mean_over_allocation_mib,"
                                    "fixed_headroom_percent,fixed_headroom_under_prediction_rate,"
                                    "fixed_headroom_mean_over_allocation_mib";
constexpr int boundColumnCount = 9;

// The bound's columns of one row; empty cells where the row has no bound (a std row, a diverged fold).
void writeBound(std::ostream &out, const calibration::BoundMetrics *bound, const calibration::BoundMetrics *tenPercent,
                double fixedHeadroomPercent, const calibration::BoundMetrics *fixedHeadroom)
{
    if (!bound) {
        out << std::string(boundColumnCount, ',');
        return;
    }
    for (double value :
         {bound->underPredictionRate, bound->meanOverAllocation, bound->medianOverAllocation,
          bound->meanOverAllocationPercent, tenPercent->underPredictionRate, tenPercent->meanOverAllocation,
          fixedHeadroomPercent, fixedHeadroom->underPredictionRate, fixedHeadroom->meanOverAllocation})
        out << ',' << io::csvNumber(value);
}

// Writes one row; bounded adds the bound's columns (from fold, or the model's means when fold is null and mean is set).
void writeRow(std::ostream &out, const evaluation::ModelResult &model, const std::string &fold,
              const evaluation::RegressionMetrics &metrics, double trainSeconds, double predictSeconds, bool bounded,
              const evaluation::FoldBound *foldBound, const evaluation::ModelBound *meanBound)
{
    out << csvField(model.name) << ',' << csvField(model.title) << ',' << fold;
    for (const auto &metric : evaluation::metricDescriptions())
        out << ',' << io::csvNumber(metrics.*metric.member);
    out << ',' << io::csvNumber(trainSeconds) << ',' << io::csvNumber(predictSeconds);
    if (bounded) {
        if (foldBound)
            writeBound(out, &foldBound->bound, &foldBound->tenPercent, foldBound->fixedHeadroomPercent,
                       &foldBound->fixedHeadroom);
        else if (meanBound)
            writeBound(out, &meanBound->bound, &meanBound->tenPercent, meanBound->fixedHeadroomPercent,
                       &meanBound->fixedHeadroom);
        else
            writeBound(out, nullptr, nullptr, 0.0, nullptr);
    }
    out << '\n';
}

} // namespace

void writeCsvReport(std::ostream &out, const ComparisonContext &, const evaluation::ExperimentResult &result)
{
    out << "model,title,fold";
    for (const auto &metric : evaluation::metricDescriptions())
        out << ',' << metric.key;
    out << ",train_seconds,predict_seconds";
    // The bound's columns appear only when the comparison calibrated, so that
    // other comparisons keep their columns exactly.
    const bool bounded = result.calibration.has_value();
    if (bounded)
        out << boundHeader;
    out << '\n';
    for (const auto &model : result.models) {
        for (const auto &fold : model.folds)
            writeRow(out, model, std::to_string(fold.fold + 1), fold.metrics, fold.trainSeconds, fold.predictSeconds,
                     bounded, fold.bound ? &*fold.bound : nullptr, nullptr);
        writeRow(out, model, "mean", model.mean, model.trainSeconds / static_cast<double>(model.folds.size()),
                 model.predictSeconds / static_cast<double>(model.folds.size()), bounded, nullptr,
                 model.bound ? &*model.bound : nullptr);
        writeRow(out, model, "std", model.standardDeviation, std::nan(""), std::nan(""), bounded, nullptr, nullptr);
    }
}

} // namespace gpumem::report
