#include "cli/MetricsFormat.h"

#include <cstdio>

namespace gpumem::cli {

void writeMetrics(io::JsonWriter &json, const evaluation::RegressionMetrics &metrics)
{
    json.beginObject();
    for (const auto &metric : evaluation::metricDescriptions())
        json.key(metric.key).value(metrics.*metric.member);
    json.endObject();
}

std::string describeMetrics(const evaluation::RegressionMetrics &metrics)
{
    char text[256];
    std::snprintf(text, sizeof text,
                  "RMSE %.2f  MAE %.2f  R² %.5f  MAPE %.2f%%  max error %.1f  under-predicted %.1f%%  "
                  "mean over-allocation %.2f",
                  metrics.rmse, metrics.mae, metrics.r2, metrics.mape, metrics.maxError, 100.0 * metrics.underRate,
                  metrics.overAllocation);
    return text;
}

} // namespace gpumem::cli
