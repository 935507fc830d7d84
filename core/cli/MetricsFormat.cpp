#include "cli/MetricsFormat.h"

#include <cstdio>

namespace gpumem::cli {

void writeMetrics(io::JsonWriter &json, const evaluation::RegressionMetrics &metrics)
{
    json.beginObject();
    json.key("mse").value(metrics.mse);
    json.key("rmse").value(metrics.rmse);
    json.key("mae").value(metrics.mae);
    json.key("r2").value(metrics.r2);
    json.key("mape").value(metrics.mape);
    json.key("max_error").value(metrics.maxError);
    json.key("under_rate").value(metrics.underRate);
    json.key("over_alloc").value(metrics.overAllocation);
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
