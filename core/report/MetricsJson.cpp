// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/MetricsJson.h"

#include <limits>

namespace gpumem::evaluation {

void to_json(io::Json &json, const RegressionMetrics &metrics)
{
    json = io::Json::object();
    for (const auto &metric : metricDescriptions())
        json[metric.key] = metrics.*metric.member;
}

void from_json(const io::Json &json, RegressionMetrics &metrics)
{
    metrics = filledMetrics(std::numeric_limits<double>::quiet_NaN());
    for (const auto &metric : metricDescriptions()) {
        const io::Json *value = io::findMember(json, metric.key);
        if (value && !value->is_null())
            metrics.*metric.member = io::toNumber(*value);
    }
}

} // namespace gpumem::evaluation
