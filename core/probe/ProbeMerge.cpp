// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/ProbeMerge.h"

#include "io/InputError.h"
#include "probe/JobSampler.h"

#include <map>
#include <set>
#include <unordered_map>

namespace gpumem::probe {

std::string mergeProbeFiles(const std::vector<std::string> &paths, const ProbeOptions &options)
{
    // The number of each configuration's first draw: the place a whole run gives its row.
    const JobSampler sampler(options.family, options.device, options.seed, options.steps, options.sizes);
    const std::string simulatedGpu = options.simulator != nullptr ? options.simulator->profileName() : std::string();
    std::unordered_map<std::string, std::uint64_t> firstDraw;
    for (std::uint64_t index = 0; index < options.count; ++index)
        firstDraw.emplace(sampler.sample(index).key(), index);

    struct Source
    {
        std::string path;
        std::int64_t line;
        std::string text;
    };
    std::map<std::uint64_t, Source> rows;
    for (const auto &path : paths) {
        std::int64_t line = 1;
        for (auto &row : ProbeRunner::readRows(path, options.family, options.device, simulatedGpu)) {
            ++line;
            const auto found = firstDraw.find(row.key);
            if (found == firstDraw.end())
                throw io::InputError(path, line, 1,
                                     "this configuration is not in the job list of --family, --seed, --count and "
                                     "--steps: a shard of another probe");
            const auto [entry, inserted] = rows.emplace(found->second, Source{path, line, std::move(row.line)});
            if (!inserted)
                throw io::InputError(path, line, 1,
                                     "job " + std::to_string(found->second) + " is also in " + entry->second.path +
                                         ":" + std::to_string(entry->second.line) + " (overlapping shards)");
        }
    }
    std::set<std::uint64_t> expected;
    for (const auto &[key, index] : firstDraw)
        expected.insert(index);
    for (const std::uint64_t index : expected)
        if (rows.count(index) == 0)
            throw io::InputError("job " + std::to_string(index) + " of " + std::to_string(options.count) +
                                 " is in none of the files (a shard missing or not finished)");

    std::string merged;
    const std::vector<std::string> columns = ProbeRunner::columnNames(options.family, !simulatedGpu.empty());
    for (std::size_t column = 0; column < columns.size(); ++column)
        merged += (column == 0 ? "" : ",") + columns[column];
    merged += '\n';
    for (const auto &[index, source] : rows)
        merged += source.text + '\n';
    return merged;
}

} // namespace gpumem::probe
