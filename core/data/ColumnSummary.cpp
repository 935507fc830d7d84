// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/ColumnSummary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpumem::data {

namespace {

// Welford's update keeps the variance accurate for large, close values (byte counts).
class RunningMoments
{
  public:
    void add(double value)
    {
        ++mCount;
        const double delta = value - mMean;
        mMean += delta / static_cast<double>(mCount);
        mSquares += delta * (value - mMean);
        mMinimum = std::min(mMinimum, value);
        mMaximum = std::max(mMaximum, value);
    }

    void writeTo(ColumnSummary &summary) const
    {
        if (mCount == 0)
            return;
        summary.minimum = mMinimum;
        summary.maximum = mMaximum;
        summary.mean = mMean;
        summary.standardDeviation = std::sqrt(mSquares / static_cast<double>(mCount));
    }

  private:
    std::int64_t mCount = 0;
    double mMean = 0.0;
    double mSquares = 0.0;
    double mMinimum = std::numeric_limits<double>::infinity();
    double mMaximum = -std::numeric_limits<double>::infinity();
};

} // namespace

ColumnSummary summarizeColumn(const Column &column, std::size_t rowCount)
{
    ColumnSummary summary;
    summary.missing = column.missingCount;
    summary.invalid = column.invalidCount;
    RunningMoments moments;
    switch (column.type) {
    case ColumnType::Numeric:
        for (double value : column.numbers)
            if (!std::isnan(value))
                moments.add(value);
        break;
    case ColumnType::Categorical:
    case ColumnType::Identifier: {
        summary.distinct = column.categories.size();
        std::vector<std::int64_t> frequency(column.categories.size(), 0);
        for (std::int32_t code : column.codes)
            if (code >= 0)
                ++frequency[static_cast<std::size_t>(code)];
        std::vector<std::size_t> order(frequency.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        const std::size_t shown = std::min<std::size_t>(5, order.size());
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                          [&frequency](std::size_t a, std::size_t b) {
                              return frequency[a] != frequency[b] ? frequency[a] > frequency[b] : a < b;
                          });
        for (std::size_t i = 0; i < shown; ++i)
            summary.topValues.push_back(column.categories[order[i]]);
        break;
    }
    case ColumnType::Sequence:
        for (std::size_t row = 0; row < column.sequences.rowCount(); ++row)
            if (column.sequences.isPresent(row))
                moments.add(static_cast<double>(column.sequences.layerCount(row)));
        summary.layerTypes = column.sequences.layerTypes();
        summary.fieldsPerLayer = column.sequences.fieldsPerLayer();
        break;
    case ColumnType::Empty: break;
    }
    moments.writeTo(summary);
    summary.present = static_cast<std::int64_t>(rowCount) - summary.missing - summary.invalid;
    return summary;
}

} // namespace gpumem::data
