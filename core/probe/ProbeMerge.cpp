// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/ProbeMerge.h"

#include "io/InputError.h"
#include "probe/JobSampler.h"

#include <map>
#include <optional>
#include <unordered_map>

namespace gpumem::probe {

std::string mergeProbeFiles(const std::vector<std::string> &paths, const ProbeOptions &options)
{
    checkProbeCount(options.count);
    // Each configuration's first draw (the place a whole run gives its row) and how
    // many times the list draws it (how many shards may have measured it).
    struct Draws
    {
        std::uint64_t first = 0;
        std::uint64_t count = 0;
    };
    const JobSampler sampler(options.family, options.device, options.seed, options.steps, options.sizes);
    const std::string simulatedGpu = options.simulator != nullptr ? options.simulator->profileName() : std::string();
    std::unordered_map<std::string, Draws> draws;
    for (std::uint64_t index = 0; index < options.count; ++index)
        ++draws.try_emplace(sampler.sample(index).key(), Draws{index, 0}).first->second.count;

    struct Source
    {
        std::string path;
        std::int64_t line;
        std::string text;
        std::uint64_t files; // how many files hold the configuration so far
    };
    std::map<std::uint64_t, Source> rows;
    for (const auto &path : paths) {
        std::int64_t line = 1;
        for (auto &row : ProbeRunner::readRows(path, options.family, options.device, simulatedGpu)) {
            ++line;
            const auto found = draws.find(row.key);
            if (found == draws.end())
                throw io::InputError(path, line, 1,
                                     "this configuration is not in the job list of " + io::parameter("family") + ", " +
                                         io::parameter("seed") + ", " + io::parameter("count") + " and " +
                                         io::parameter("steps") + ": a shard of another probe");
            const auto [entry, inserted] =
                rows.emplace(found->second.first, Source{path, line, std::move(row.line), 1});
            // Shards draw only their own slices, so a configuration that several slices
            // draw is measured in each of them; the first file's row is kept. More rows
            // of it than the list has draws, or two in one file, are shards given twice.
            if (!inserted && (entry->second.path == path || ++entry->second.files > found->second.count))
                throw io::InputError(path, line, 1,
                                     "job " + std::to_string(found->second.first) + " is also in " +
                                         entry->second.path + ":" + std::to_string(entry->second.line) +
                                         " (overlapping shards)");
        }
    }
    // The first job missing, whatever the order of the hash map.
    std::optional<std::uint64_t> missing;
    for (const auto &[key, drawn] : draws)
        if (rows.count(drawn.first) == 0 && (!missing || drawn.first < *missing))
            missing = drawn.first;
    if (missing)
        throw io::InputError("job " + std::to_string(*missing) + " of " + std::to_string(options.count) +
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
