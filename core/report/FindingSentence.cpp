// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/FindingSentence.h"

#include "report/ComparisonReport.h"
#include "report/ReportText.h"

#include <cmath>

namespace gpumem::report {

namespace {

const evaluation::MetricDescription &rmseMetric()
{
    return evaluation::metricDescription("rmse");
}

// "21.14 ± 1.752 MiB", or "21.14 MiB" where one split leaves no spread.
std::string rmseText(const evaluation::ModelResult &model, bool spread)
{
    const auto &metric = rmseMetric();
    std::string text = formatMetric(metric, model.mean.rmse);
    if (spread)
        text += " ± " + formatMetric(metric, model.standardDeviation.rmse);
    return text + " " + metric.unit;
}

// What the spread is taken over: "over 5 folds", "over 15 fits (3 × 5-fold cross-validation)"
// or, for a hold-out, "on the held-out rows".
std::string spreadScope(const evaluation::ExperimentResult &result)
{
    const std::size_t fits = result.splits.size();
    if (fits <= 1)
        return "on the held-out rows";
    if (result.repeats > 1)
        return "over " + std::to_string(fits) + " fits (" + std::to_string(result.repeats) + " × " +
               std::to_string(evaluation::splitsPerRepetition(result)) + "-fold cross-validation)";
    return "over " + std::to_string(fits) + " folds";
}

// The runner-up: the lowest mean RMSE among the models other than the best, or nullptr.
const evaluation::ModelResult *runnerUp(const evaluation::ExperimentResult &result)
{
    const evaluation::ModelResult *second = nullptr;
    for (const auto &model : result.models)
        if (model.name != result.best && !std::isnan(model.mean.rmse) &&
            (!second || model.mean.rmse < second->mean.rmse))
            second = &model;
    return second;
}

// What the significance test of the runner-up against the best says.
std::string differenceClause(const evaluation::ExperimentResult &result, const std::string &model)
{
    if (const auto *test = reportedTest(result, model)) {
        const std::string p = formatPValue(test->pValue);
        const std::string pText = p.rfind('<', 0) == 0 ? "p " + p : "p = " + p;
        return std::string("the difference is ") + (test->pValue < 0.05 ? "significant" : "not significant") + " (" +
               testTitle(test->test) + ", " + pText + ")";
    }
    for (const auto &test : result.significance)
        if (test.model == model)
            return "with " + std::to_string(test.pairs) + " folds the difference is not tested (a test needs ≥ " +
                   std::to_string(evaluation::minimumReportedPairs) + " folds)";
    return "the difference was not tested";
}

} // namespace

std::string findingSentence(const evaluation::ExperimentResult &result)
{
    const evaluation::ModelResult *best = nullptr;
    for (const auto &model : result.models)
        if (model.name == result.best)
            best = &model;
    if (!best)
        return "No model finished every split, so the comparison has no finding.";
    const bool spread = result.splits.size() > 1;
    const evaluation::ModelResult *second = runnerUp(result);
    if (!second)
        return best->title + " has an RMSE of " + rmseText(*best, spread) + " " + spreadScope(result) + ".";
    return best->title + " has the lowest RMSE, " + rmseText(*best, spread) + " " + spreadScope(result) + "; " +
           second->title + " is second, " + rmseText(*second, spread) + "; " + differenceClause(result, second->name) +
           ".";
}

} // namespace gpumem::report
