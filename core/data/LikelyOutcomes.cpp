// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/LikelyOutcomes.h"

#include "data/Correlations.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <optional>
#include <set>
#include <sstream>

namespace gpumem::data {

namespace {

// The lower-case words of a column name: runs of letters and digits ("Avg GPUTL" →
// avg, gputl; "peak_allocated_mib" → peak, allocated, mib).
std::vector<std::string> wordsOf(const std::string &name)
{
    std::vector<std::string> words;
    std::string word;
    for (const char c : name + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!word.empty()) {
            words.push_back(word);
            word.clear();
        }
    }
    return words;
}

bool hasAnyWord(const std::vector<std::string> &words, const std::set<std::string> &vocabulary)
{
    return std::any_of(words.begin(), words.end(),
                       [&](const std::string &word) { return vocabulary.count(word) != 0; });
}

// What a profiler or nvidia-smi/DCGM reports while a job runs.
const std::set<std::string> &counterWords()
{
    static const std::set<std::string> words = {
        "util",   "utilization", "utilisation", "gputl",    "gract",   "smact",   "smocc",       "fp32a",   "fp16a",
        "fp64a",  "drama",       "tenso",       "power",    "watt",    "watts",   "temperature", "temp",    "clock",
        "clocks", "throughput",  "latency",     "duration", "elapsed", "runtime", "time",        "seconds", "secs"};
    return words;
}

// The first word of a statistic over a run ("Avg GPUTL", "Max GPU Memory").
const std::set<std::string> &statisticWords()
{
    static const std::set<std::string> words = {"avg",  "average", "mean", "max", "maximum", "min", "minimum",
                                                "peak", "median",  "std",  "p50", "p90",     "p95", "p99"};
    return words;
}

const std::set<std::string> &memoryWords()
{
    static const std::set<std::string> words = {"mib",    "mb",  "gib",      "gb",        "bytes",
                                                "memory", "mem", "reserved", "allocated", "vram"};
    return words;
}

} // namespace

std::vector<LikelyOutcome> likelyOutcomes(const Table &table, const std::vector<ColumnRole> &roles)
{
    // Without a chosen target, the one the workbench would suggest: the question is
    // asked before any column becomes a feature.
    const auto target = std::find(roles.begin(), roles.end(), ColumnRole::Target);
    const Column *chosen = nullptr;
    if (target != roles.end()) {
        chosen = &table.column(static_cast<std::size_t>(target - roles.begin()));
    } else if (const std::vector<std::string> candidates = targetCandidates(table); !candidates.empty()) {
        for (const Column &column : table.columns())
            if (column.name == candidates.front())
                chosen = &column;
    }
    if (chosen == nullptr)
        return {};
    const Column &targetColumn = *chosen;
    const std::vector<std::string> targetWords = wordsOf(targetColumn.name);
    const bool targetIsStatistic = !targetWords.empty() && statisticWords().count(targetWords.front()) != 0;
    std::vector<LikelyOutcome> outcomes;
    for (const Column &column : table.columns()) {
        if (roles[column.index] != ColumnRole::Feature || column.index == targetColumn.index)
            continue;
        const std::vector<std::string> words = wordsOf(column.name);
        // A counter of the run is an outcome wherever it stands. The other signs hold only
        // for columns after the target: files record what they chose first, what they
        // measured last, and a chosen size ("input_mib", "Total Parameters") may well be
        // a memory figure or follow the target closely.
        const bool afterTarget = column.index > targetColumn.index;
        if (hasAnyWord(words, counterWords())) {
            outcomes.push_back({column.name, "named like a counter measured while the job ran"});
        } else if (!afterTarget) {
            continue;
        } else if (targetIsStatistic && !words.empty() && statisticWords().count(words.front()) != 0) {
            outcomes.push_back({column.name, "a statistic of the run, like the target"});
        } else if (hasAnyWord(words, memoryWords())) {
            outcomes.push_back({column.name, "another memory figure"});
        } else if (column.type == ColumnType::Numeric && targetColumn.type == ColumnType::Numeric) {
            const std::optional<double> r = pearsonCorrelation(column.numbers, targetColumn.numbers);
            if (r && std::abs(*r) >= 0.98) {
                std::ostringstream reason;
                reason << "follows the target almost exactly (r = " << std::fixed << std::setprecision(2) << *r << ")";
                outcomes.push_back({column.name, reason.str()});
            }
        }
    }
    return outcomes;
}

std::vector<LikelyOutcome> likelyOutcomes(const Table &table, const std::vector<ColumnRole> &roles,
                                          const ColumnNotes &notes)
{
    return notes.source.empty() ? likelyOutcomes(table, roles) : std::vector<LikelyOutcome>{};
}

std::string likelyOutcomesNote(const std::vector<LikelyOutcome> &outcomes)
{
    if (outcomes.empty())
        return {};
    std::string listed;
    for (const auto &outcome : outcomes)
        listed += (listed.empty() ? "" : ", ") + ("'" + outcome.column + "' (" + outcome.reason + ")");
    return std::to_string(outcomes.size()) + (outcomes.size() == 1 ? " feature looks" : " features look") +
           " measured with the target rather than known before the job runs, so as features they would hand a "
           "model the answer: " +
           listed + "; ignore them (--ignore, or the Data page's role), or keep them on purpose with --features";
}

} // namespace gpumem::data
