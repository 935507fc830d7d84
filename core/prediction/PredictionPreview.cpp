// SPDX-License-Identifier: GPL-3.0-or-later
#include "prediction/PredictionPreview.h"

#include "data/JobNames.h"
#include "data/TableLoader.h"
#include "io/NumberText.h"

#include <fmt/format.h>

#include <cmath>

namespace gpumem::prediction {

namespace {

// MiB as people read them: a CPU probe's few MiB keep decimals, GPU-sized jobs read as whole MiB.
std::string memoryText(double mib)
{
    if (std::isnan(mib))
        return {};
    const int decimals = std::abs(mib) < 10.0 ? 3 : std::abs(mib) < 100.0 ? 1 : 0;
    return fmt::format("{:.{}f}", mib, decimals);
}

} // namespace

data::Table predictionPreview(const data::Table &table, const Predictions &predictions)
{
    const data::Dataset &dataset = predictions.dataset;
    const std::vector<std::string> names = data::jobNames(table, dataset.rowLines());
    const bool withBounds = predictions.upperBounds.size() > 0;
    const bool withTarget = dataset.hasTarget();
    std::string csv = std::string(names.empty() ? "line" : "job") + ",prediction" + (withBounds ? ",upper_bound" : "") +
                      (withTarget ? ",actual,error" : "") + (predictions.rangesKnown ? ",extrapolated" : "") + '\n';
    for (std::size_t row = 0; row < dataset.rowCount(); ++row) {
        const auto index = static_cast<Eigen::Index>(row);
        // A text name keeps the column an identifier even where every name looks like a number.
        csv += names.empty() ? std::to_string(dataset.rowLines()[row]) : io::csvField(names[row]);
        csv += ',' + memoryText(predictions.predicted[index]);
        if (withBounds)
            csv += ',' + memoryText(predictions.upperBounds[index]);
        if (withTarget)
            csv += ',' + memoryText(dataset.target()[index]) + ',' +
                   memoryText(predictions.predicted[index] - dataset.target()[index]);
        if (predictions.rangesKnown) {
            // A dash for a job inside the training data: an empty cell would read as missing.
            const std::string outside = describeExtrapolation(predictions, row);
            csv += ',' + (outside.empty() ? std::string("—") : io::csvField(outside));
        }
        csv += '\n';
    }
    // Read back as the loader types every column, so that the preview sorts numbers as numbers.
    return data::loadTableFromText(csv, "prediction preview");
}

} // namespace gpumem::prediction
