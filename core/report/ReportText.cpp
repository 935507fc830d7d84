// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/ReportText.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpumem::report {

std::string formatPValue(double pValue)
{
    if (std::isnan(pValue))
        return "n/a";
    if (pValue < 0.0001)
        return "< 0.0001";
    return fmt::format("{:.4f}", pValue);
}

std::string testTitle(const std::string &test)
{
    if (test == "paired_t")
        return "paired t-test";
    if (test == "wilcoxon")
        return "Wilcoxon signed-rank test";
    if (test == "corrected_t")
        return "corrected repeated k-fold t-test (Nadeau and Bengio)";
    return test;
}

std::string markdownCell(const std::string &text)
{
    std::string cell;
    for (char c : text) {
        if (c == '|')
            cell += "\\|";
        else if (c == '\n' || c == '\r')
            cell += ' ';
        else
            cell += c;
    }
    return cell;
}

std::string htmlEscaped(const std::string &text)
{
    std::string escaped;
    for (char c : text) {
        switch (c) {
        case '&': escaped += "&amp;"; break;
        case '<': escaped += "&lt;"; break;
        case '>': escaped += "&gt;"; break;
        case '"': escaped += "&quot;"; break;
        default: escaped += c;
        }
    }
    return escaped;
}

std::string formatShare(double share)
{
    if (std::isnan(share))
        return "–";
    return fmt::format("{:.1f}%", 100.0 * share);
}

std::string boundTitle(double coverage)
{
    return fmt::format("Calibrated upper bound (coverage {:g}%)", std::round(coverage * 1e4) / 100.0);
}

const std::vector<BoundColumn> &boundColumns()
{
    static const std::vector<BoundColumn> columns{
        {"Under-prediction", [](const evaluation::ModelBound &b) { return formatShare(b.bound.underPredictionRate); }},
        {"Mean over-allocation (MiB)",
         [](const evaluation::ModelBound &b) { return formatSignificant(b.bound.meanOverAllocation, 4); }},
        {"Median over-allocation (MiB)",
         [](const evaluation::ModelBound &b) { return formatSignificant(b.bound.medianOverAllocation, 4); }},
        {"Mean over-allocation (% of actual)",
         [](const evaluation::ModelBound &b) { return fmt::format("{:.2f}%", b.bound.meanOverAllocationPercent); }},
        {"+10% rule: under-prediction",
         [](const evaluation::ModelBound &b) { return formatShare(b.tenPercent.underPredictionRate); }},
        {"+10% rule: waste (MiB)",
         [](const evaluation::ModelBound &b) { return formatSignificant(b.tenPercent.meanOverAllocation, 4); }},
        {"Best fixed headroom",
         [](const evaluation::ModelBound &b) { return fmt::format("{:+.2f}%", b.fixedHeadroomPercent); }},
        {"Its under-prediction",
         [](const evaluation::ModelBound &b) { return formatShare(b.fixedHeadroom.underPredictionRate); }},
        {"Its waste (MiB)",
         [](const evaluation::ModelBound &b) { return formatSignificant(b.fixedHeadroom.meanOverAllocation, 4); }},
    };
    return columns;
}

std::string describeBound(const calibration::CalibrationSettings &settings, bool folds)
{
    return fmt::format(
        "Split-conformal upper bound with the {} score, calibrated on {:g}% of {} training rows (never on test "
        "rows) and scored on the test rows{}. Under-prediction: the share of jobs whose real peak exceeds the "
        "bound (out of memory); over-allocation: memory reserved beyond the need. +10% rule: the prediction plus "
        "10%. Best fixed headroom: the smallest percentage that holds {:g}% of the calibration rows, scored on "
        "the test rows.",
        calibration::scoreName(settings.score), std::round(settings.fraction * 1e4) / 100.0,
        folds ? "each fold's" : "the", folds ? ", means over the folds" : "",
        std::round(settings.coverage * 1e4) / 100.0);
}

} // namespace gpumem::report
