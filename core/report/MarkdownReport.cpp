// The comparison report as Markdown: the paper's table (one row per model; MSE,
// RMSE, MAE and R² columns; the best value of each column in bold), then the
// scheduler's view (under-prediction and over-allocation), timing and significance.
#include "report/ComparisonReport.h"

#include "report/ReportText.h"

#include <cmath>
#include <limits>

namespace gpumem::report {

namespace {

// Returns the best mean of a metric over the models (lowest, or highest for R²).
double bestMean(const evaluation::ExperimentResult &result, const evaluation::MetricDescription &metric)
{
    double best =
        metric.higherIsBetter ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    for (const auto &model : result.models) {
        const double value = model.mean.*metric.member;
        if (!std::isnan(value))
            best = metric.higherIsBetter ? std::max(best, value) : std::min(best, value);
    }
    return best;
}

std::string headerCell(const evaluation::MetricDescription &metric)
{
    const std::string unit = metric.unit;
    return std::string(metric.title) + (unit.empty() || unit == "%" ? "" : " (" + unit + ")");
}

void writeMetricTable(std::ostream &out, const evaluation::ExperimentResult &result,
                      const std::vector<std::string> &keys, bool withSpread)
{
    out << "| Model |";
    for (const auto &key : keys)
        out << ' ' << headerCell(evaluation::metricDescription(key)) << " |";
    out << "\n|:--|";
    for (std::size_t i = 0; i < keys.size(); ++i)
        out << "--:|";
    out << '\n';
    for (const auto &model : result.models) {
        out << "| " << markdownCell(model.title) << " |";
        for (const auto &key : keys) {
            const auto &metric = evaluation::metricDescription(key);
            const double value = model.mean.*metric.member;
            const std::string text = formatMetric(key, value);
            // Bold marks the best formatted value, so ties at the shown precision are all bold.
            const bool best = !std::isnan(value) && text == formatMetric(key, bestMean(result, metric));
            out << ' ' << (best ? "**" + text + "**" : text);
            if (withSpread && result.splits.size() > 1)
                out << " ± " << formatMetric(key, model.standardDeviation.*metric.member);
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
    out << "\n\n";

    writeMetricTable(out, result, {"mse", "rmse", "mae", "r2"}, false);
    out << "\n"
        << (result.splits.size() > 1 ? "Means over the folds; " : "On the held-out rows; ")
        << "**bold**: the best value of each column.\n\n";

    out << "## Out-of-memory risk\n\n";
    writeMetricTable(out, result, {"under_rate", "over_alloc", "max_error", "mape"}, false);
    out << "\nUnder-prediction rate: the share of jobs predicted below their real peak (a scheduler trusting "
           "the prediction would crash them). Mean over-allocation: memory reserved beyond the need, per job.\n\n";

    if (result.splits.size() > 1) {
        out << "## Spread over the folds\n\n";
        writeMetricTable(out, result, {"rmse", "mae", "r2"}, true);
        out << "\nMean ± sample standard deviation over the folds.\n\n";
    }

    out << "## Time and significance\n\n| Model | Train (s) | Predict (s) | p against " << markdownCell(result.best)
        << " |\n|:--|--:|--:|--:|\n";
    std::string testUsed;
    for (const auto &model : result.models) {
        out << "| " << markdownCell(model.title) << " | " << formatSignificant(model.trainSeconds, 3) << " | "
            << formatSignificant(model.predictSeconds, 3) << " | ";
        if (const auto *test = reportedTest(result, model.name)) {
            out << formatPValue(test->pValue) << (test->pValue < 0.05 ? " *" : "");
            testUsed = (test->test == "paired_t" ? "paired t-test" : "Wilcoxon signed-rank test") +
                       std::string(" of the ") + test->metric;
        } else {
            out << (model.name == result.best ? "best" : "–");
        }
        out << " |\n";
    }
    if (!testUsed.empty()) {
        out << "\np: two-sided " << testUsed << " against the best model; * p < 0.05.";
        if (result.splits.size() > 1 && result.splits.size() < 6)
            out << " With " << result.splits.size()
                << " folds the Wilcoxon signed-rank test cannot reach p < 0.05 (its smallest p is 2/2^"
                << result.splits.size() << "), so the t-test is reported; the JSON report holds both.";
        out << '\n';
    }

    out << "\n## Hyperparameters\n\n";
    for (const auto &model : result.models) {
        out << "- **" << markdownCell(model.title) << "**:";
        for (const auto &spec : model.hyperparameters.specs())
            out << ' ' << model.hyperparameters.text(spec.name);
        out << '\n';
    }
}

} // namespace gpumem::report
