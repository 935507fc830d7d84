// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/AdaBoostR2.h"

#include "io/InputError.h"
#include "io/NamedValues.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpumem::models {

AdaBoostLoss parseAdaBoostLoss(const std::string &name)
{
    constexpr io::NamedValues<AdaBoostLoss, 3> losses{{{"linear", AdaBoostLoss::Linear},
                                                       {"square", AdaBoostLoss::Square},
                                                       {"exponential", AdaBoostLoss::Exponential}}};
    return io::parseNamed(losses, name, "AdaBoost loss");
}

AdaBoostRoundResult adaBoostRound(const Eigen::VectorXd &absoluteErrors, Eigen::VectorXd &sampleWeights,
                                  AdaBoostLoss loss, double learningRate, bool updateWeights)
{
    double largest = 0.0;
    for (Eigen::Index row = 0; row < absoluteErrors.size(); ++row) {
        if (sampleWeights(row) > 0.0)
            largest = std::max(largest, absoluteErrors(row));
    }
    Eigen::VectorXd losses = Eigen::VectorXd::Zero(absoluteErrors.size());
    AdaBoostRoundResult result;
    for (Eigen::Index row = 0; row < absoluteErrors.size(); ++row) {
        if (!(sampleWeights(row) > 0.0))
            continue;
        double value = largest != 0.0 ? absoluteErrors(row) / largest : absoluteErrors(row);
        if (loss == AdaBoostLoss::Square)
            value *= value;
        else if (loss == AdaBoostLoss::Exponential)
            value = 1.0 - std::exp(-value);
        losses(row) = value;
        result.error += sampleWeights(row) * value;
    }
    if (result.error <= 0.0) {
        result.perfect = true;
        result.estimatorWeight = 1.0;
        result.error = 0.0;
        return result;
    }
    if (result.error >= 0.5) {
        result.tooWeak = true;
        return result;
    }
    const double beta = result.error / (1.0 - result.error);
    result.estimatorWeight = learningRate * std::log(1.0 / beta);
    if (updateWeights) {
        for (Eigen::Index row = 0; row < sampleWeights.size(); ++row) {
            if (sampleWeights(row) > 0.0)
                sampleWeights(row) *= std::pow(beta, (1.0 - losses(row)) * learningRate);
        }
    }
    return result;
}

double weightedMedian(const std::vector<double> &values, const std::vector<double> &weights)
{
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    const double half = 0.5 * std::accumulate(weights.begin(), weights.end(), 0.0);
    double cumulative = 0.0;
    for (const std::size_t index : order) {
        cumulative += weights[index];
        if (cumulative >= half)
            return values[index];
    }
    return values[order.back()];
}

std::vector<Eigen::Index> weightedResample(const Eigen::VectorXd &weights, data::SeededRandom &random)
{
    std::vector<double> cumulative(static_cast<std::size_t>(weights.size()));
    double total = 0.0;
    for (Eigen::Index row = 0; row < weights.size(); ++row) {
        total += std::max(0.0, weights(row));
        cumulative[static_cast<std::size_t>(row)] = total;
    }
    std::vector<Eigen::Index> drawn(cumulative.size());
    for (Eigen::Index &row : drawn) {
        // The first row whose cumulative weight exceeds the draw: rows of weight 0 are never chosen.
        const double point = random.unit() * total;
        auto found = std::upper_bound(cumulative.begin(), cumulative.end(), point);
        if (found == cumulative.end()) // the draw rounded up to the total: the last row that has weight
            found = std::lower_bound(cumulative.begin(), cumulative.end(), total);
        row = static_cast<Eigen::Index>(found - cumulative.begin());
    }
    return drawn;
}

} // namespace gpumem::models
