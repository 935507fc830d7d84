// SPDX-License-Identifier: GPL-3.0-or-later
#include "prediction/PredictionFile.h"

#include "io/NumberText.h"
#include <charconv>
#include <sstream>

namespace gpumem::prediction {

std::string predictionCsv(std::size_t tableRows, const std::vector<std::size_t> &usableRows,
                          const data::Dataset &dataset, const Eigen::VectorXd &predicted,
                          const std::vector<std::string> &splits, const Eigen::VectorXd &upperBounds,
                          const std::vector<std::string> &extrapolated)
{
    const bool withTarget = dataset.hasTarget();
    const bool withSplits = !splits.empty();
    const bool withBounds = upperBounds.size() > 0;
    const bool withExtrapolated = !extrapolated.empty();
    std::ostringstream csv;
    csv << "prediction" << (withBounds ? ",upper_bound" : "") << (withTarget ? ",actual,error" : "")
        << (withSplits ? ",split" : "") << (withExtrapolated ? ",extrapolated" : "") << '\n';
    std::size_t next = 0; // the next dataset row
    for (std::size_t row = 0; row < tableRows; ++row) {
        if (next < usableRows.size() && usableRows[next] == row) {
            const auto index = static_cast<Eigen::Index>(next);
            csv << io::csvNumber(predicted[index]);
            if (withBounds)
                csv << ',' << io::csvNumber(upperBounds[index]);
            if (withTarget)
                csv << ',' << io::csvNumber(dataset.target()[index]) << ','
                    << io::csvNumber(predicted[index] - dataset.target()[index]);
            if (withSplits)
                csv << ',' << splits[next];
            if (withExtrapolated)
                csv << ',' << io::csvField(extrapolated[next]);
            ++next;
        } else {
            csv << std::string(
                (withBounds ? 1 : 0) + (withTarget ? 2 : 0) + (withSplits ? 1 : 0) + (withExtrapolated ? 1 : 0), ',');
        }
        csv << '\n';
    }
    return csv.str();
}

} // namespace gpumem::prediction
