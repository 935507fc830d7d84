// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/MetricsJson.h"

#include <limits>

namespace gpumem::report {

void writeMetrics(io::JsonWriter &json, const evaluation::RegressionMetrics &metrics)
{
    json.beginObject();
    for (const auto &metric : evaluation::metricDescriptions())
        json.key(metric.key).value(metrics.*metric.member);
    json.endObject();
}

evaluation::RegressionMetrics readMetrics(const io::JsonValue &object)
{
    evaluation::RegressionMetrics metrics = evaluation::filledMetrics(std::numeric_limits<double>::quiet_NaN());
    for (const auto &metric : evaluation::metricDescriptions()) {
        const io::JsonValue *value = object.find(metric.key);
        if (value && !value->isNull())
            metrics.*metric.member = value->toNumber();
    }
    return metrics;
}

} // namespace gpumem::report
