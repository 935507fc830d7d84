// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison report as Markdown: the paper's table (one row per model; MSE,
// RMSE, MAE and R² columns; the best value of each column in bold), then the
// scheduler's view (under-prediction and over-allocation), timing and significance.
#include "report/ComparisonReport.h"

#include "evaluation/Ranking.h"
#include "report/FindingSentence.h"
#include "report/ReportText.h"
#include "report/SignificanceLegend.h"
#include "report/WorstRows.h"

#include <cmath>
#include <limits>

namespace gpumem::report {

namespace {

std::string headerCell(const evaluation::MetricDescription &metric)
{
    const std::string unit = metric.unit;
    return std::string(metric.title) + (unit.empty() || unit == "%" ? "" : " (" + unit + ")");
}

// The metrics of group, or of the accuracy group without MSE for the spread table.
std::vector<const evaluation::MetricDescription *> metricsOf(evaluation::MetricGroup group, bool spread = false)
{
    std::vector<const evaluation::MetricDescription *> metrics;
    for (const auto &metric : evaluation::metricDescriptions())
        if (metric.group == group && !(spread && std::string(metric.key) == "mse"))
            metrics.push_back(&metric);
    return metrics;
}

// spread (optional) names the spread written after each mean: ModelResult::standardDeviation or repetitionSpread.
void writeMetricTable(std::ostream &out, const evaluation::ExperimentResult &result,
                      const std::vector<const evaluation::MetricDescription *> &metrics,
                      evaluation::RegressionMetrics evaluation::ModelResult::*spread = nullptr)
{
    out << "| Model |";
    for (const auto *metric : metrics)
        out << ' ' << headerCell(*metric) << " |";
    out << "\n|:--|";
    for (std::size_t i = 0; i < metrics.size(); ++i)
        out << "--:|";
    out << '\n';
    for (const auto &model : result.models) {
        out << "| " << markdownCell(model.title) << " |";
        for (const auto *metric : metrics) {
            const std::string text = formatMetric(*metric, model.mean.*metric->member);
            out << ' ' << (evaluation::isBestModel(result, model, *metric) ? "**" + text + "**" : text);
            if (spread)
                out << " ± " << formatMetric(*metric, (model.*spread).*metric->member);
            out << " |";
        }
        out << '\n';
    }
}

} // namespace

void writeMarkdownReport(std::ostream &out, const ComparisonContext &context,
                         const evaluation::ExperimentResult &result)
{
    out << "# Peak GPU memory: model comparison\n\n";
    out << "Data `" << markdownCell(context.dataset) << "`, target `" << markdownCell(context.target) << "`, "
        << context.rows << " rows, " << describeSplitting(context) << ".";
    if (result.cancelled)
        out << " **The run was cancelled: only the models that finished every split are shown.**";
    for (const auto &failure : result.failures)
        out << " **" << markdownCell(failure.model) << " failed:** " << markdownCell(failure.message) << '.';
    out << "\n\n**Finding.** " << findingSentence(result) << "\n\n";

    writeMetricTable(out, result, metricsOf(evaluation::MetricGroup::Accuracy));
    out << "\n"
        << (result.repeats > 1         ? "Means over every fold of every repetition; "
            : result.splits.size() > 1 ? "Means over the folds; "
                                       : "On the held-out rows; ")
        << "**bold**: the best value of each column.\n\n";

    out << "## Out-of-memory risk\n\n";
    writeMetricTable(out, result, metricsOf(evaluation::MetricGroup::Risk));
    out << "\nUnder-prediction rate: the share of jobs predicted below their real peak (a scheduler trusting "
           "the prediction would crash them). Mean over-allocation: memory reserved beyond the need, per job.\n\n";

    if (result.calibration) {
        out << "## " << boundTitle(result.calibration->coverage) << "\n\n| Model |";
        for (const auto &column : boundColumns())
            out << ' ' << column.title << " |";
        out << "\n|:--|";
        for (std::size_t i = 0; i < boundColumns().size(); ++i)
            out << "--:|";
        out << '\n';
        for (const auto &model : result.models) {
            if (!model.bound)
                continue;
            out << "| " << markdownCell(model.title) << " |";
            for (const auto &column : boundColumns())
                out << ' ' << column.cell(*model.bound) << " |";
            out << '\n';
        }
        out << '\n' << describeBound(*result.calibration, result.splits.size() > 1) << "\n\n";
    }

    if (result.splits.size() > 1) {
        out << "## Spread over the folds\n\n";
        writeMetricTable(out, result, metricsOf(evaluation::MetricGroup::Accuracy, true),
                         &evaluation::ModelResult::standardDeviation);
        out << "\nMean ± sample standard deviation over the " << result.splits.size() << " fits.\n\n";
    }
    if (result.repeats > 1) {
        out << "## Spread over the repetitions\n\n";
        writeMetricTable(out, result, metricsOf(evaluation::MetricGroup::Accuracy, true),
                         &evaluation::ModelResult::repetitionSpread);
        out << "\nMean ± sample standard deviation of the " << result.repeats
            << " repetitions' means: how much one cross-validation's figure depends on its seed.\n\n";
    }

    out << "## Time and significance\n\n| Model | Train (s) | Predict (s) | p against " << markdownCell(result.best)
        << " |\n|:--|--:|--:|--:|\n";
    for (const auto &model : result.models) {
        out << "| " << markdownCell(model.title) << " | " << formatSignificant(model.trainSeconds, 3) << " | "
            << formatSignificant(model.predictSeconds, 3) << " | ";
        out << markdownCell(significanceText(result, model.name)) << " |\n";
    }
    if (const std::string legend = significanceLegend(result); !legend.empty())
        out << '\n' << legend << '\n';

    const WorstRows worst = worstRows(context, result);
    out << "\n## Worst under-predictions\n\n| Model | Job | Actual (MiB) | Predicted (MiB) | Shortfall (MiB) |\n"
           "|:--|:--|--:|--:|--:|\n";
    for (const auto &row : worst.rows)
        out << "| " << markdownCell(result.models[row.under.model].title) << " | " << markdownCell(row.job)
            << (row.note > 0 ? " [" + std::to_string(row.note) + "]" : "") << " | "
            << formatSignificant(row.under.actual, 5) << " | " << formatSignificant(row.under.predicted, 5) << " | "
            << formatSignificant(row.under.shortfall(), 4) << " |\n";
    out << "\nThe " << reportedUnderPredictions << " largest shortfalls of any model, out of fold.\n";
    if (!worst.notes.empty())
        out << "\nWhole job names:\n\n";
    for (std::size_t note = 0; note < worst.notes.size(); ++note)
        out << "- [" << note + 1 << "] " << worst.notes[note] << '\n';
    out << "\n## Hyperparameters\n\n";
    for (const auto &model : result.models) {
        out << "- **" << markdownCell(model.title) << "**:";
        for (const auto &spec : model.hyperparameters.specs())
            out << " `" << spec.name << '=' << model.hyperparameters.text(spec.name) << '`';
        out << '\n';
    }
}

} // namespace gpumem::report
