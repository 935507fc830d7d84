// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/OutOfFoldCsv.h"

#include "io/NumberText.h"

#include <sstream>

namespace gpumem::report {

std::string outOfFoldCsv(std::size_t tableRows, const std::vector<std::size_t> &usableRows,
                         const evaluation::ExperimentResult &result)
{
    // The first repetition's folds: it is the one whose predictions the result keeps.
    std::vector<int> foldOfRow(usableRows.size(), 0);
    for (std::size_t fold = 0; fold < evaluation::splitsPerRepetition(result) && fold < result.splits.size(); ++fold)
        for (Eigen::Index row : result.splits[fold].test)
            foldOfRow[static_cast<std::size_t>(row)] = static_cast<int>(fold) + 1;
    std::ostringstream csv;
    csv << "fold,actual";
    for (const auto &model : result.models)
        csv << ",prediction_" << model.name;
    std::size_t boundColumns = 0;
    for (const auto &model : result.models)
        if (model.bound) {
            csv << ",upper_bound_" << model.name;
            ++boundColumns;
        }
    csv << '\n';
    std::size_t next = 0; // the next experiment row
    for (std::size_t row = 0; row < tableRows; ++row) {
        if (next < usableRows.size() && usableRows[next] == row) {
            const auto index = static_cast<Eigen::Index>(next);
            csv << (foldOfRow[next] > 0 ? std::to_string(foldOfRow[next]) : "train") << ','
                << io::csvNumber(result.actual[index]);
            for (const auto &model : result.models)
                csv << ',' << io::csvNumber(model.predictions[index]);
            for (const auto &model : result.models)
                if (model.bound)
                    csv << ',' << io::csvNumber(model.bound->upperBounds[index]);
            ++next;
        } else {
            csv << std::string(1 + result.models.size() + boundColumns, ',');
        }
        csv << '\n';
    }
    return csv.str();
}

} // namespace gpumem::report
