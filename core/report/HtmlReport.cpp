// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison report as one self-contained HTML page: the finding in one sentence,
// the tables of the Markdown report, SVG charts (a bar chart per metric with fold error
// bars, predicted against actual and the residuals' histogram per model), the worst
// under-predictions, readable offline and printable.
#include "report/ComparisonReport.h"

#include "report/FindingSentence.h"
#include "report/HtmlChartGrid.h"
#include "report/HtmlTables.h"
#include "report/ReportText.h"
#include "report/SignificanceLegend.h"
#include "report/SvgCharts.h"

#include <ctime>

namespace gpumem::report {

namespace {

constexpr const char *styleSheet = R"(
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
p.finding { font-size: 1.1em; background: #eef5ee; border-left: 4px solid #2e7d32; padding: 0.6em 1em; }
table { border-collapse: collapse; margin: 0.5em 0; } th, td { padding: 0.3em 0.8em; border-bottom: 1px solid #e5e5e5; }
td.number { text-align: right; font-variant-numeric: tabular-nums; } th { text-align: left; background: #f6f6f6; }
td.significance { text-align: right; }
td.best { font-weight: bold; background: #e8f4ea; } .note { color: #555; font-size: 0.9em; }
.names { overflow-wrap: anywhere; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(360px, 1fr)); gap: 1em; }
figure { margin: 0; } figcaption { margin-top: 0.2em; }
.chart { width: 100%; height: auto; border: 1px solid #eee; }
)";

// Qt's rich text knows a subset of CSS 2: no grids, widths on tables only.
constexpr const char *printStyleSheet = R"(
body { font-family: sans-serif; color: #222; } h1 { font-size: 16pt; } h2 { font-size: 13pt; margin-top: 12pt; }
p.names { font-size: 7pt; }
p.finding { font-size: 10.5pt; background-color: #eef5ee; margin-top: 6pt; margin-bottom: 6pt; }
table { border-collapse: collapse; width: 100%; } th, td { padding: 1pt 3pt; border-bottom: 1px solid #ccc; }
th { text-align: left; background: #f0f0f0; font-size: 7pt; } td { font-size: 8pt; }
td.number { text-align: right; white-space: nowrap; } td.significance { text-align: right; } code { font-size: 8pt; }
td.best { font-weight: bold; background: #e8f4ea; } .note { color: #555; font-size: 8pt; }
table.environment th { font-size: 8pt; padding-right: 8pt; }
table.charts { margin-top: 0; margin-bottom: 12pt; } table.charts td { border: none; text-align: center; vertical-align: top; }
)";

std::string dateToday()
{
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::tm parts{};
    gmtime_r(&now, &parts);
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &parts);
    return text;
}

void writeCharts(std::ostream &out, const std::vector<ReportDrawing> &charts, const HtmlReportOptions &options)
{
    HtmlChartGrid grid(out, options);
    for (const auto &chart : charts)
        grid.add(chart);
}

// The calibrated bound's table and its risk-versus-waste chart (with --coverage only).
void writeBoundSection(std::ostream &out, const evaluation::ExperimentResult &result, const HtmlReportOptions &options)
{
    out << "<h2>" << htmlEscaped(boundTitle(result.calibration->coverage)) << "</h2>\n";
    writeBoundTable(out, result, options.printable);
    out << "<p class='note'>" << htmlEscaped(describeBound(*result.calibration, result.splits.size() > 1)) << "</p>\n";
    std::vector<Curve> curves;
    for (const auto &model : result.models) {
        if (!model.bound)
            continue;
        Curve curve;
        curve.label = model.title;
        for (const auto &point : model.bound->curve) {
            curve.x.push_back(point.meanOverAllocation);
            curve.y.push_back(100.0 * point.underPredictionRate);
        }
        curve.markerX = model.bound->bound.meanOverAllocation;
        curve.markerY = 100.0 * model.bound->bound.underPredictionRate;
        curve.referenceX = model.bound->fixedHeadroom.meanOverAllocation;
        curve.referenceY = 100.0 * model.bound->fixedHeadroom.underPredictionRate;
        curves.push_back(std::move(curve));
    }
    out << "<p class='note'>Each curve sweeps the margin from none (the point prediction) to the largest "
           "calibration score, on the test rows. Filled circle: the bound at the chosen coverage; open "
           "square: the best fixed headroom.</p>\n";
    writeCharts(out,
                {{{"bound_curves", "Out-of-memory risk vs wasted memory"},
                  svgLineChart("Out-of-memory risk vs wasted memory", "mean over-allocation (MiB)",
                               "under-prediction rate (%)", curves)}},
                options);
}

std::string metricsNote(const evaluation::ExperimentResult &result)
{
    const std::string spread =
        result.repeats > 1 ? "Means ± standard deviation over every fold of " + std::to_string(result.repeats) +
                                 " repetitions, each with its own folds and training seed; train time summed over "
                                 "the fits. "
        : result.splits.size() > 1 ? "Means ± standard deviation over the folds; train time summed over the folds. "
                                   : "";
    return htmlEscaped(spread + "Bold: the best value of each column. " + significanceLegend(result));
}

} // namespace

void writeHtmlReport(std::ostream &out, const ComparisonContext &context, const evaluation::ExperimentResult &result,
                     const HtmlReportOptions &options)
{
    out << "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>Model comparison: "
        << htmlEscaped(context.dataset) << "</title><style>" << (options.printable ? printStyleSheet : styleSheet)
        << "</style></head><body>\n";
    out << "<h1>Peak GPU memory: model comparison</h1>\n<p class='finding'>" << htmlEscaped(findingSentence(result))
        << "</p>\n<p>Data <code>" << htmlEscaped(context.dataset) << "</code>, target <code>"
        << htmlEscaped(context.target) << "</code>, " << context.rows << " rows, "
        << htmlEscaped(describeSplitting(context)) << ".</p>\n";
    if (result.cancelled)
        out << "<p><b>The run was cancelled: only the models that finished every split are shown.</b></p>\n";
    for (const auto &failure : result.failures)
        out << "<p><b>" << htmlEscaped(failure.model) << " failed:</b> " << htmlEscaped(failure.message) << "</p>\n";

    out << "<h2>Metrics</h2>\n";
    writeMetricsTable(out, result, evaluation::MetricGroup::Accuracy, options.printable);
    out << "<p class='note'>" << metricsNote(result) << "</p>\n";
    out << "<h2>Out-of-memory risk</h2>\n";
    writeMetricsTable(out, result, evaluation::MetricGroup::Risk, options.printable);
    out << "<p class='note'>Under-prediction rate: the share of jobs predicted below their real peak (a scheduler "
           "trusting the prediction would crash them). Mean over-allocation: memory reserved beyond the need, per "
           "job. No value is crowned here: fewer misses alone can mean memory wasted.</p>\n";
    if (result.calibration)
        writeBoundSection(out, result, options);

    out << "<h2>Charts</h2>\n<p class='note'>Bars: means over the folds, with ± one standard deviation; the best "
           "model by RMSE is highlighted; each bar is labelled with its value as the tables give it. R² is drawn as "
           "1 − R² on a log scale, where near-perfect models differ; values that all sit near the top of an axis "
           "are drawn on an axis zoomed onto them.</p>\n";
    writeCharts(out, metricCharts(result), options);
    // The charts may be the workbench's, drawn in other colours: the notes name no colour, each chart keys its own.
    out << "<h2>Predicted against actual</h2>\n<p class='note'>Each test row's prediction from the fold "
           "that held it out; points below the diagonal y = x are under-predictions (an out-of-memory "
           "risk).</p>\n";
    writeCharts(out, scatterCharts(result), options);
    out << "<h2>Residuals</h2>\n<p class='note'>How far each model's out-of-fold predictions miss, predicted − "
           "actual in MiB: bars left of zero are under-predictions. The axis reaches the 98th percentile of the "
           "misses; larger ones count in the outermost bars.</p>\n";
    writeCharts(out, residualCharts(result), options);

    out << "<h2>Worst under-predictions</h2>\n<p class='note'>The " << reportedUnderPredictions
        << " largest shortfalls of any model, out of fold: the jobs a scheduler trusting the prediction would "
           "crash.</p>\n";
    writeWorstRowsTable(out, context, result, options.printable);

    out << "<h2>Hyperparameters</h2>\n";
    for (const auto &model : result.models) {
        out << "<p><b>" << htmlEscaped(model.title) << "</b>:";
        for (const auto &spec : model.hyperparameters.specs())
            out << " <code>" << htmlEscaped(spec.name + "=" + model.hyperparameters.text(spec.name)) << "</code>";
        out << "</p>\n";
    }
    out << "<h2>Environment</h2>\n";
    writeEnvironmentTable(out, context, options.printable, dateToday());
    out << "</body></html>\n";
}

} // namespace gpumem::report
