// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/SweepPlan.h"

#include "data/SeededRandom.h"
#include "io/InputError.h"

#include <limits>
#include <set>

namespace gpumem::runs {

namespace {

std::vector<std::string> splitValues(const std::string &text)
{
    std::vector<std::string> values;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        values.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos)
            return values;
        start = comma + 1;
    }
}

// The trial whose values are the digits of combination in the mixed radix of the value counts.
SweepTrial trialOf(const SweepPlan &plan, std::size_t index, std::uint64_t combination)
{
    SweepTrial trial;
    trial.index = index;
    trial.assignments.resize(plan.parameters.size());
    // The last parameter is the fastest digit, so a grid varies the first one slowest.
    for (std::size_t position = plan.parameters.size(); position-- > 0;) {
        const SweepParameter &parameter = plan.parameters[position];
        const std::uint64_t count = parameter.values.size();
        trial.assignments[position] = {parameter.name, parameter.values[combination % count]};
        combination /= count;
    }
    return trial;
}

} // namespace

SweepParameter parseSweepParameter(const std::string &text)
{
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        throw io::InputError(io::parameter("sweep_parameter") + " takes NAME=V1,V2,…, not " +
                             io::quoteForMessage(text));
    SweepParameter parameter;
    parameter.name = text.substr(0, equals);
    parameter.values = splitValues(text.substr(equals + 1));
    for (const auto &value : parameter.values)
        if (value.empty())
            throw io::InputError(io::parameter("sweep_parameter") + " " + parameter.name + ": a value is empty in " +
                                 io::quoteForMessage(text));
    return parameter;
}

std::vector<SweepTrial> expandSweep(const SweepPlan &plan)
{
    if (plan.parameters.empty())
        throw io::InputError("a sweep needs at least one " + io::parameter("sweep_parameter", "NAME=V1,V2,…"));
    std::set<std::string> names;
    std::uint64_t combinations = 1;
    for (const auto &parameter : plan.parameters) {
        if (!names.insert(parameter.name).second)
            throw io::InputError(io::parameter("sweep_parameter") + " " + parameter.name +
                                 " is given twice; list all its values in one");
        if (parameter.values.empty())
            throw io::InputError(io::parameter("sweep_parameter") + " " + parameter.name + " has no value");
        const std::uint64_t count = parameter.values.size();
        // Saturates instead of overflowing: anything above the limit is refused below.
        combinations = combinations > std::numeric_limits<std::uint64_t>::max() / count
                           ? std::numeric_limits<std::uint64_t>::max()
                           : combinations * count;
    }
    std::vector<SweepTrial> trials;
    if (plan.mode == SweepMode::Grid) {
        if (combinations > maxSweepTrials)
            throw io::InputError("the grid has " + std::to_string(combinations) + " combinations, more than " +
                                 std::to_string(maxSweepTrials) + "; use " + io::parameter("random_trials", "N"));
        for (std::uint64_t combination = 0; combination < combinations; ++combination)
            trials.push_back(trialOf(plan, trials.size(), combination));
        return trials;
    }
    if (plan.randomTrials == 0)
        throw io::InputError(io::parameter("random_trials") + " takes a positive number of trials");
    if (plan.randomTrials > maxSweepTrials)
        throw io::InputError(io::parameter("random_trials") + " " + std::to_string(plan.randomTrials) +
                             " is more than " + std::to_string(maxSweepTrials) + " trials");
    if (plan.randomTrials > combinations)
        throw io::InputError(io::parameter("random_trials") + " " + std::to_string(plan.randomTrials) +
                             " asks for more trials than the " + std::to_string(combinations) +
                             " combinations of the values; run the grid instead");
    // Distinct draws: a repeated combination would train the same run twice. With
    // at most as many trials as combinations, redraws end quickly on average.
    data::SeededRandom random(plan.seed);
    std::set<std::uint64_t> drawn;
    while (trials.size() < plan.randomTrials) {
        const std::uint64_t combination = random.below(combinations);
        if (drawn.insert(combination).second)
            trials.push_back(trialOf(plan, trials.size(), combination));
    }
    return trials;
}

std::vector<SweepTrial> sweepShard(const std::vector<SweepTrial> &trials, std::size_t shard, std::size_t shards)
{
    if (shards == 0 || shard >= shards)
        throw io::InputError(io::parameter("shard", "I/N") + " needs 0 <= I < N, not " + std::to_string(shard) + "/" +
                             std::to_string(shards));
    std::vector<SweepTrial> selected;
    for (const auto &trial : trials)
        if (trial.index % shards == shard)
            selected.push_back(trial);
    return selected;
}

std::string sweepDescription(const SweepPlan &plan)
{
    std::string text = plan.mode == SweepMode::Grid
                           ? std::string("grid")
                           : "random " + std::to_string(plan.randomTrials) + " seed " + std::to_string(plan.seed);
    for (const auto &parameter : plan.parameters) {
        text += ' ' + parameter.name + '=';
        for (std::size_t index = 0; index < parameter.values.size(); ++index)
            text += (index == 0 ? "" : ",") + parameter.values[index];
    }
    return text;
}

std::string assignmentsText(const SweepTrial &trial)
{
    std::string text;
    for (const auto &[name, value] : trial.assignments)
        text += (text.empty() ? "" : " ") + name + "=" + value;
    return text;
}

} // namespace gpumem::runs
