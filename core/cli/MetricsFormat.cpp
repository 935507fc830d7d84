// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/MetricsFormat.h"

#include <string>

namespace gpumem::cli {

std::string describeMetrics(const evaluation::RegressionMetrics &metrics)
{
    // MSE repeats RMSE squared; the line names every other metric.
    std::string text;
    for (const auto &metric : evaluation::metricDescriptions()) {
        if (std::string(metric.key) == "mse")
            continue;
        text += (text.empty() ? "" : "  ") + std::string(metric.title) + ' ' +
                evaluation::formatMetric(metric, metrics.*metric.member);
    }
    return text;
}

} // namespace gpumem::cli
