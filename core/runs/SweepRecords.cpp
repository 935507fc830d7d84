// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/SweepRecords.h"

#include "io/InputError.h"
#include "io/Json.h"
#include "io/RegularFile.h"
#include "io/Sha256.h"

#include <map>

namespace gpumem::runs {

namespace {

using Json = nlohmann::ordered_json;

std::size_t countMember(const Json &object, const char *name, const std::string &path, std::int64_t line)
{
    const auto found = object.find(name);
    if (found == object.end() || !found->is_number_integer() || found->get<std::int64_t>() < 0)
        throw io::InputError(path, line, 1, std::string("a sweep record needs a whole number '") + name + "'");
    return found->get<std::size_t>();
}

// The record as one line of text, without its newline. Invalid UTF-8 in a message
// or name becomes U+FFFD instead of an exception mid-sweep; read back and written
// again, a record gives the same text, which is what its digest covers.
std::string recordText(const Json &record)
{
    return record.dump(-1, ' ', false, Json::error_handler_t::replace);
}

} // namespace

std::string sweepLine(const std::string &identity, const SweepTrial &trial, std::size_t trials, const RunRecord &run)
{
    Json line = Json::object();
    line["sweep"] = identity;
    line["trial"] = trial.index;
    line["trials"] = trials;
    Json values = Json::object();
    for (const auto &[name, value] : trial.assignments)
        values[name] = value;
    line["values"] = std::move(values);
    line["run"] = run;
    line["digest"] = io::sha256Hex(recordText(line));
    return recordText(line) + '\n';
}

std::vector<SweepLine> readSweepFile(const std::string &path)
{
    const std::string content = io::readRegularFile(path, maxSweepFileBytes);
    std::vector<SweepLine> lines;
    std::size_t start = 0;
    std::int64_t number = 1;
    while (start < content.size()) {
        const std::size_t newline = content.find('\n', start);
        if (newline == std::string::npos)
            throw io::InputError(path, number, 1, "the last line is unfinished (a run still writing, or cut short)");
        SweepLine line;
        line.text = content.substr(start, newline + 1 - start);
        Json json;
        try {
            json = io::parseJson(std::string_view(line.text).substr(0, line.text.size() - 1), path);
        } catch (const io::InputError &error) {
            throw io::InputError(path, number, error.column(), "not a JSON sweep record: " + error.message());
        }
        if (!json.is_object() || !json.contains("sweep") || !json["sweep"].is_string() || !json.contains("run"))
            throw io::InputError(path, number, 1, "not a sweep record (no \"sweep\" and \"run\" members)");
        // An edited value or metric would otherwise merge as if a trial had measured it.
        const Json *digest = io::findMember(json, "digest");
        if (digest == nullptr || !digest->is_string())
            throw io::InputError(path, number, 1, "a sweep record needs its \"digest\" (written by this version)");
        const std::string recorded = digest->get<std::string>();
        json.erase("digest");
        if (io::sha256Hex(recordText(json)) != recorded)
            throw io::InputError(path, number, 1,
                                 "the record does not match its digest (edited after the sweep wrote it)");
        line.identity = json["sweep"].get<std::string>();
        line.trial = countMember(json, "trial", path, number);
        line.trials = countMember(json, "trials", path, number);
        if (line.trial >= line.trials)
            throw io::InputError(path, number, 1,
                                 "trial " + std::to_string(line.trial) + " of " + std::to_string(line.trials));
        try {
            line.run = json["run"].get<RunRecord>();
        } catch (const io::InputError &error) {
            throw io::InputError(path, number, 1, error.message());
        } catch (const Json::exception &error) {
            throw io::InputError(path, number, 1, std::string("run record: ") + error.what());
        }
        lines.push_back(std::move(line));
        start = newline + 1;
        ++number;
    }
    return lines;
}

std::string mergeSweepFiles(const std::vector<std::string> &paths)
{
    struct Source
    {
        std::string path;
        std::int64_t line;
        std::string text;
    };
    std::map<std::size_t, Source> byTrial;
    std::string identity;
    std::size_t trials = 0;
    std::string firstPath;
    for (const auto &path : paths) {
        std::int64_t number = 0;
        for (auto &line : readSweepFile(path)) {
            ++number;
            if (firstPath.empty()) {
                identity = line.identity;
                trials = line.trials;
                firstPath = path;
            } else if (line.identity != identity || line.trials != trials) {
                throw io::InputError(path, number, 1,
                                     "a record of another sweep than " + firstPath +
                                         "'s (different plan, model, data or settings)");
            }
            const auto [found, inserted] = byTrial.emplace(line.trial, Source{path, number, std::move(line.text)});
            if (!inserted)
                throw io::InputError(path, number, 1,
                                     "trial " + std::to_string(line.trial) + " is also in " + found->second.path + ":" +
                                         std::to_string(found->second.line) + " (overlapping shards)");
        }
    }
    if (byTrial.empty())
        throw io::InputError("no sweep records in the files to merge");
    for (std::size_t trial = 0; trial < trials; ++trial)
        if (byTrial.count(trial) == 0)
            throw io::InputError("trial " + std::to_string(trial) + " of " + std::to_string(trials) +
                                 " is in none of the files (a shard missing or not finished); " +
                                 std::to_string(byTrial.size()) + " trials found");
    std::string merged;
    for (const auto &[trial, source] : byTrial)
        merged += source.text;
    return merged;
}

} // namespace gpumem::runs
