// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/SweepRecords.h"

#include "io/InputError.h"
#include "io/Json.h"
#include "io/RegularFile.h"
#include "io/Sha256.h"

#include <map>
#include <optional>
#include <string_view>

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

// The line with its digest appended, and its newline.
std::string withDigest(Json line)
{
    line["digest"] = io::sha256Hex(recordText(line));
    return recordText(line) + '\n';
}

// A string member of a sweep line, or an error naming the line.
std::string textMember(const Json &object, const char *name, const std::string &path, std::int64_t line)
{
    const auto found = object.find(name);
    if (found == object.end() || !found->is_string())
        throw io::InputError(path, line, 1, std::string("a sweep line needs the text '") + name + "'");
    return found->get<std::string>();
}

// Parses one line of a sweep file (without its newline) and checks it against its digest.
Json checkedLine(std::string_view text, const std::string &path, std::int64_t number)
{
    Json json;
    try {
        json = io::parseJson(text, path);
    } catch (const io::InputError &error) {
        throw io::InputError(path, number, error.column(), "not a JSON sweep record: " + error.markedMessage());
    }
    if (!json.is_object() || !json.contains("sweep") || !json["sweep"].is_string())
        throw io::InputError(path, number, 1, "not a sweep record (no \"sweep\" member)");
    // An edited value or metric would otherwise merge as if a trial had measured it.
    const Json *digest = io::findMember(json, "digest");
    if (digest == nullptr || !digest->is_string())
        throw io::InputError(path, number, 1, "a sweep record needs its \"digest\" (written by this version)");
    const std::string recorded = digest->get<std::string>();
    json.erase("digest");
    if (io::sha256Hex(recordText(json)) != recorded)
        throw io::InputError(path, number, 1, "the record does not match its digest (edited after the sweep wrote it)");
    return json;
}

SweepHeader readHeader(const Json &json, const std::string &path)
{
    if (!json.contains("plan")) {
        // Files of earlier versions repeated the whole plan on every line and had no first line of their own.
        throw io::InputError(path, 1, 1,
                             json.contains("run") ? "the first line is a run, not the line naming the sweep (a file "
                                                    "of an earlier gpumem, or cut at its start); run the sweep again"
                                                  : "not a sweep file (its first line names no \"plan\")");
    }
    SweepHeader header;
    header.id = textMember(json, "sweep", path, 1);
    header.plan = textMember(json, "plan", path, 1);
    header.model = textMember(json, "model", path, 1);
    header.trials = countMember(json, "trials", path, 1);
    if (header.trials == 0 || header.trials > maxSweepTrials)
        throw io::InputError(path, 1, 1,
                             "a sweep holds 1 to " + std::to_string(maxSweepTrials) + " trials, not " +
                                 std::to_string(header.trials));
    return header;
}

SweepLine readRunLine(const Json &json, const SweepHeader &header, const std::string &path, std::int64_t number)
{
    if (json["sweep"].get_ref<const std::string &>() != header.id)
        throw io::InputError(path, number, 1, "a record of another sweep than the file's first line names");
    SweepLine line;
    line.trial = countMember(json, "trial", path, number);
    if (countMember(json, "trials", path, number) != header.trials || line.trial >= header.trials)
        throw io::InputError(path, number, 1,
                             "trial " + std::to_string(line.trial) + " of a sweep of " + std::to_string(header.trials));
    if (!json.contains("run"))
        throw io::InputError(path, number, 1, "a sweep record needs its \"run\"");
    try {
        line.run = json["run"].get<RunRecord>();
    } catch (const io::InputError &error) {
        throw io::InputError(path, number, 1, error.markedMessage());
    } catch (const Json::exception &error) {
        throw io::InputError(path, number, 1, std::string("run record: ") + error.what());
    }
    return line;
}

} // namespace

SweepHeader sweepHeader(const std::string &identity, const SweepPlan &plan, const std::string &model,
                        std::size_t trials)
{
    return {io::sha256Hex(identity), sweepDescription(plan), model, trials};
}

std::string sweepHeaderLine(const SweepHeader &header)
{
    Json line = Json::object();
    line["sweep"] = header.id;
    line["plan"] = header.plan;
    line["model"] = header.model;
    line["trials"] = header.trials;
    return withDigest(std::move(line));
}

std::string sweepLine(const SweepHeader &header, const SweepTrial &trial, const RunRecord &run)
{
    Json line = Json::object();
    line["sweep"] = header.id;
    line["trial"] = trial.index;
    line["trials"] = header.trials;
    Json values = Json::object();
    for (const auto &[name, value] : trial.assignments)
        values[name] = value;
    line["values"] = std::move(values);
    line["run"] = run;
    return withDigest(std::move(line));
}

SweepFile readSweepFile(const std::string &path)
{
    return parseSweepFile(io::readRegularFile(path, maxSweepFileBytes), path);
}

SweepFile parseSweepFile(const std::string &content, const std::string &path)
{
    if (content.empty())
        throw io::InputError(path, 0, 0, "is empty, not a sweep file");
    SweepFile file;
    std::size_t start = 0;
    std::int64_t number = 1;
    while (start < content.size()) {
        const std::size_t newline = content.find('\n', start);
        if (newline == std::string::npos)
            throw io::InputError(path, number, 1, "the last line is unfinished (a run still writing, or cut short)");
        const std::string_view text = std::string_view(content).substr(start, newline - start);
        const Json json = checkedLine(text, path, number);
        if (number == 1) {
            file.header = readHeader(json, path);
            file.headerText = std::string(text) + '\n';
        } else {
            SweepLine line = readRunLine(json, file.header, path, number);
            line.text = std::string(text) + '\n';
            file.lines.push_back(std::move(line));
        }
        start = newline + 1;
        ++number;
    }
    return file;
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
    std::optional<SweepFile> first;
    std::string firstPath;
    for (const auto &path : paths) {
        SweepFile file = readSweepFile(path);
        if (!first) {
            firstPath = path;
            first = SweepFile{file.header, file.headerText, {}};
        } else if (file.header.id != first->header.id || file.header.trials != first->header.trials) {
            throw io::InputError(
                path, 1, 1, "a part of another sweep than " + firstPath + " (different plan, model, data or settings)");
        }
        std::int64_t number = 1;
        for (auto &line : file.lines) {
            ++number;
            const auto [found, inserted] = byTrial.emplace(line.trial, Source{path, number, std::move(line.text)});
            if (!inserted)
                throw io::InputError(path, number, 1,
                                     "trial " + std::to_string(line.trial) + " is also in " + found->second.path + ":" +
                                         std::to_string(found->second.line) + " (overlapping shards)");
        }
    }
    if (byTrial.empty())
        throw io::InputError("no sweep records in the files to merge");
    const std::size_t trials = first->header.trials;
    for (std::size_t trial = 0; trial < trials; ++trial)
        if (byTrial.count(trial) == 0)
            throw io::InputError("trial " + std::to_string(trial) + " of " + std::to_string(trials) +
                                 " is in none of the files (a shard missing or not finished); " +
                                 std::to_string(byTrial.size()) + " trials found");
    std::string merged = first->headerText;
    for (const auto &[trial, source] : byTrial)
        merged += source.text;
    return merged;
}

} // namespace gpumem::runs
