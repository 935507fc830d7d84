// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/Correlations.h"

#include "data/SeededRandom.h"
#include "runtime/OperationControl.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpumem::data {

namespace {

// The pairs where both values are finite, as two vectors of equal length.
void finitePairs(const std::vector<double> &x, const std::vector<double> &y, std::vector<double> &pairedX,
                 std::vector<double> &pairedY)
{
    const std::size_t length = std::min(x.size(), y.size());
    for (std::size_t row = 0; row < length; ++row)
        if (std::isfinite(x[row]) && std::isfinite(y[row])) {
            pairedX.push_back(x[row]);
            pairedY.push_back(y[row]);
        }
}

// Pearson's correlation of two vectors of equal length and finite values. Two passes
// (means first) rather than running sums: memory sizes in bytes are large and close,
// and sums of their squares would lose the variance to rounding.
std::optional<double> pearsonOfFinite(const std::vector<double> &x, const std::vector<double> &y)
{
    const std::size_t count = x.size();
    if (count < 3)
        return std::nullopt;
    const double n = static_cast<double>(count);
    const double meanX = std::accumulate(x.begin(), x.end(), 0.0) / n;
    const double meanY = std::accumulate(y.begin(), y.end(), 0.0) / n;
    double covariance = 0, varianceX = 0, varianceY = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const double dx = x[i] - meanX, dy = y[i] - meanY;
        covariance += dx * dy;
        varianceX += dx * dx;
        varianceY += dy * dy;
    }
    if (!(varianceX > 0) || !(varianceY > 0))
        return std::nullopt;
    // Rounding may carry a perfect correlation a hair past ±1.
    return std::clamp(covariance / std::sqrt(varianceX * varianceY), -1.0, 1.0);
}

// The 1-based ranks of values, tied values sharing the average of their ranks.
std::vector<double> averageRanks(const std::vector<double> &values)
{
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (std::size_t first = 0; first < order.size();) {
        std::size_t last = first;
        while (last + 1 < order.size() && values[order[last + 1]] == values[order[first]])
            ++last;
        // Positions first..last (0-based) hold ranks first+1..last+1; their average:
        const double rank = static_cast<double>(first + last) / 2.0 + 1.0;
        for (std::size_t i = first; i <= last; ++i)
            ranks[order[i]] = rank;
        first = last + 1;
    }
    return ranks;
}

} // namespace

std::optional<double> pearsonCorrelation(const std::vector<double> &x, const std::vector<double> &y)
{
    std::vector<double> pairedX, pairedY;
    finitePairs(x, y, pairedX, pairedY);
    return pearsonOfFinite(pairedX, pairedY);
}

std::optional<double> spearmanCorrelation(const std::vector<double> &x, const std::vector<double> &y)
{
    std::vector<double> pairedX, pairedY;
    finitePairs(x, y, pairedX, pairedY);
    return pearsonOfFinite(averageRanks(pairedX), averageRanks(pairedY));
}

TargetCorrelations targetCorrelations(const Table &table, const std::vector<ColumnRole> &roles,
                                      const runtime::OperationControl *control)
{
    TargetCorrelations result;
    const auto target = std::find(roles.begin(), roles.end(), ColumnRole::Target);
    if (target == roles.end())
        return result;
    const Column &targetColumn = table.column(static_cast<std::size_t>(target - roles.begin()));
    if (targetColumn.type != ColumnType::Numeric)
        return result;
    result.target = targetColumn.name;
    for (std::size_t index = 0; index < roles.size() && index < table.columnCount(); ++index) {
        if (roles[index] != ColumnRole::Feature)
            continue;
        if (control != nullptr && control->isCancelled())
            break;
        const Column &column = table.column(index);
        if (column.type != ColumnType::Numeric) {
            result.notNumeric.push_back(column.name);
            continue;
        }
        FeatureCorrelation correlation;
        correlation.column = column.name;
        std::vector<double> pairedX, pairedY;
        finitePairs(column.numbers, targetColumn.numbers, pairedX, pairedY);
        correlation.rows = pairedX.size();
        correlation.pearson = pearsonOfFinite(pairedX, pairedY);
        correlation.spearman = pearsonOfFinite(averageRanks(pairedX), averageRanks(pairedY));
        result.numeric.push_back(std::move(correlation));
    }
    std::stable_sort(result.numeric.begin(), result.numeric.end(),
                     [](const FeatureCorrelation &a, const FeatureCorrelation &b) {
                         const double strengthA = a.pearson ? std::abs(*a.pearson) : -1.0;
                         const double strengthB = b.pearson ? std::abs(*b.pearson) : -1.0;
                         return strengthA > strengthB;
                     });
    return result;
}

FeatureTargetSample featureTargetSample(const Column &feature, const Column &target, std::size_t maxPoints,
                                        std::uint64_t seed)
{
    FeatureTargetSample sample;
    if (target.type != ColumnType::Numeric ||
        (feature.type != ColumnType::Numeric && feature.type != ColumnType::Categorical))
        return sample;
    const bool categorical = feature.type == ColumnType::Categorical;
    const auto value = [&](std::size_t row) {
        if (!categorical)
            return feature.numbers[row];
        const std::int32_t code = feature.codes[row];
        return code >= 0 ? static_cast<double>(code) : std::nan("");
    };
    const std::size_t length =
        std::min(target.numbers.size(), categorical ? feature.codes.size() : feature.numbers.size());
    std::vector<std::size_t> usable;
    for (std::size_t row = 0; row < length; ++row)
        if (std::isfinite(value(row)) && std::isfinite(target.numbers[row]))
            usable.push_back(row);
    sample.usableRows = usable.size();
    if (categorical)
        sample.categories = feature.categories;
    // Selection sampling (Knuth's algorithm S): each row is kept with the chance that
    // leaves exactly maxPoints in the end, so the kept rows stay in row order.
    SeededRandom random(seed);
    std::size_t wanted = std::min(maxPoints, usable.size());
    for (std::size_t i = 0; i < usable.size() && wanted > 0; ++i) {
        const std::size_t remaining = usable.size() - i;
        if (random.below(remaining) < wanted) {
            sample.feature.push_back(value(usable[i]));
            sample.target.push_back(target.numbers[usable[i]]);
            --wanted;
        }
    }
    return sample;
}

} // namespace gpumem::data
