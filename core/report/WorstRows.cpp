// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/WorstRows.h"

#include "report/ShortNames.h"

#include <algorithm>
#include <map>

namespace gpumem::report {

WorstRows worstRows(const ComparisonContext &context, const evaluation::ExperimentResult &result)
{
    // Each model's worst reportedUnderPredictions hold every row of the overall worst ones.
    std::vector<evaluation::UnderPrediction> worst =
        evaluation::worstUnderPredictions(result, reportedUnderPredictions);
    std::stable_sort(worst.begin(), worst.end(),
                     [](const evaluation::UnderPrediction &left, const evaluation::UnderPrediction &right) {
                         return left.shortfall() > right.shortfall();
                     });
    worst.resize(std::min(worst.size(), reportedUnderPredictions));

    std::vector<std::string> names;
    for (const auto &under : worst)
        names.push_back(jobName(context, under.row));
    const std::vector<std::string> shown = shortenedNames(names, reportedJobNameLength);
    WorstRows table;
    std::map<Eigen::Index, int> noteOfRow;
    for (std::size_t i = 0; i < worst.size(); ++i) {
        WorstRow row{worst[i], shown[i], 0};
        if (shown[i] != names[i]) {
            auto [found, added] = noteOfRow.emplace(worst[i].row, static_cast<int>(table.notes.size()) + 1);
            if (added)
                table.notes.push_back(names[i]);
            row.note = found->second;
        }
        table.rows.push_back(std::move(row));
    }
    return table;
}

} // namespace gpumem::report
