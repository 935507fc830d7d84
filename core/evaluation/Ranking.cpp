// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/Ranking.h"

#include <algorithm>
#include <cmath>

namespace gpumem::evaluation {

bool isBestModel(const ExperimentResult &result, const ModelResult &model, const MetricDescription &metric)
{
    const double value = model.mean.*metric.member;
    if (!metric.crownsBest || std::isnan(value))
        return false;
    bool found = false;
    double best = 0.0;
    for (const auto &other : result.models) {
        const double candidate = other.mean.*metric.member;
        if (std::isnan(candidate))
            continue;
        if (!found || (metric.higherIsBetter ? candidate > best : candidate < best))
            best = candidate;
        found = true;
    }
    return formatMetric(metric, value) == formatMetric(metric, best);
}

std::vector<UnderPrediction> worstUnderPredictions(const ExperimentResult &result, std::size_t perModel)
{
    std::vector<UnderPrediction> worst;
    for (std::size_t index = 0; index < result.models.size(); ++index) {
        const Eigen::VectorXd &predictions = result.models[index].predictions;
        if (predictions.size() != result.actual.size())
            continue;
        std::vector<UnderPrediction> under;
        for (Eigen::Index row = 0; row < predictions.size(); ++row)
            if (std::isfinite(predictions[row]) && predictions[row] < result.actual[row])
                under.push_back({index, row, result.actual[row], predictions[row]});
        const std::size_t kept = std::min(under.size(), perModel);
        std::partial_sort(under.begin(), under.begin() + static_cast<std::ptrdiff_t>(kept), under.end(),
                          [](const UnderPrediction &left, const UnderPrediction &right) {
                              return left.shortfall() != right.shortfall() ? left.shortfall() > right.shortfall()
                                                                           : left.row < right.row;
                          });
        worst.insert(worst.end(), under.begin(), under.begin() + static_cast<std::ptrdiff_t>(kept));
    }
    return worst;
}

} // namespace gpumem::evaluation
