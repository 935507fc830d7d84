// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/SignificanceLegend.h"

#include "report/ReportText.h"

#include <fmt/format.h>

#include <algorithm>

namespace gpumem::report {

namespace {
constexpr double kMarkedP = 0.05;
constexpr double kDoublyMarkedP = 0.01;

std::string threshold(double p)
{
    return fmt::format("{:g}", p);
}
} // namespace

std::string significanceStars(double pValue)
{
    return pValue < kDoublyMarkedP ? "**" : pValue < kMarkedP ? "*" : "";
}

std::string significanceMarksLegend()
{
    return "* p < " + threshold(kMarkedP) + ", ** p < " + threshold(kDoublyMarkedP);
}

std::string significanceTestRule()
{
    return "two-sided, against the best model: a " + testTitle("paired_t") + " over fewer than " +
           std::to_string(evaluation::minimumWilcoxonPairs) + " folds, the " + testTitle("wilcoxon") + " from " +
           std::to_string(evaluation::minimumWilcoxonPairs) + ", and over repetitions the " + testTitle("corrected_t") +
           "; none below " + std::to_string(evaluation::minimumReportedPairs) + " folds";
}

std::string significanceLegend(const evaluation::ExperimentResult &result)
{
    const auto test = std::find_if(result.significance.begin(), result.significance.end(),
                                   [](const evaluation::PairedTest &candidate) { return candidate.reported; });
    if (test == result.significance.end())
        return {};
    std::string legend = "p: two-sided " + testTitle(test->test) + " of the " + test->metric +
                         " against the best model; " + significanceMarksLegend() + ".";
    const auto folds = result.splits.size();
    if (result.repeats > 1)
        legend += " The correction allows for the training rows the repetitions share.";
    else if (folds > 1 && folds < static_cast<std::size_t>(evaluation::minimumWilcoxonPairs))
        legend += " With " + std::to_string(folds) + " folds the " + testTitle("wilcoxon") + " cannot reach p < " +
                  threshold(kMarkedP) + " (its smallest p is 2/2^" + std::to_string(folds) +
                  "), so the t-test is reported; the JSON report holds both.";
    return legend;
}

} // namespace gpumem::report
