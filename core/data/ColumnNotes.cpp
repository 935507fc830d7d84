// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/ColumnNotes.h"

#include "data/EncodingLimits.h"
#include "io/InputError.h"
#include "io/Json.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace gpumem::data {

namespace fs = std::filesystem;

std::string columnNotesPath(const std::string &csvPath)
{
    fs::path path(csvPath);
    if (path.extension() == ".gz") // zoo.csv.gz has the notes of zoo.csv
        path.replace_extension();
    path.replace_extension(".columns.json");
    return path.string();
}

ColumnNotes readColumnNotes(const std::string &csvPath)
{
    ColumnNotes notes;
    const std::string path = columnNotesPath(csvPath);
    std::error_code error;
    if (!fs::exists(fs::symlink_status(path, error)))
        return notes;
    const io::Json json = io::readJsonFile(path);
    try {
        for (const auto &member : io::toObject(json).items())
            if (member.key() != "target" && member.key() != "outcomes")
                throw io::InputError("unknown member " + io::quoteForMessage(member.key(), 40) +
                                     "; the notes know \"target\" and \"outcomes\"");
        if (const io::Json *target = io::findMember(json, "target"))
            notes.target = io::toString(*target);
        if (const io::Json *outcomes = io::findMember(json, "outcomes")) {
            if (io::toArray(*outcomes).size() > maxEncodedFeatures)
                throw io::InputError("\"outcomes\" names more than " + std::to_string(maxEncodedFeatures) + " columns");
            notes.outcomes = io::toStrings(*outcomes);
        }
    } catch (const io::InputError &problem) {
        throw io::InputError(path, 0, 0, problem.markedMessage());
    }
    notes.source = path;
    return notes;
}

std::vector<std::string> otherOutcomes(const Table &table, const ColumnNotes &notes, const std::string &target)
{
    std::vector<std::string> others;
    for (const auto &name : notes.outcomes)
        if (name != target && table.columnIndex(name) && std::find(others.begin(), others.end(), name) == others.end())
            others.push_back(name);
    return others;
}

std::vector<ColumnRole> suggestedRoles(const Table &table, const ColumnNotes &notes)
{
    if (notes.source.empty())
        return suggestedRoles(table);
    RoleRequest request;
    const auto noted = table.columnIndex(notes.target);
    if (noted && table.column(*noted).type == ColumnType::Numeric) {
        request.target = notes.target;
    } else {
        const auto candidates = targetCandidates(table);
        if (!candidates.empty())
            request.target = candidates.front();
    }
    request.ignored = otherOutcomes(table, notes, request.target);
    request.ignoreConstantColumns = true;
    return assignRoles(table, request);
}

std::string otherOutcomesNote(const std::vector<std::string> &ignored, const ColumnNotes &notes)
{
    if (ignored.empty())
        return {};
    std::string names;
    for (const auto &name : ignored)
        names += (names.empty() ? "" : ", ") + io::quoteForMessage(name, 40);
    return "ignored " + std::to_string(ignored.size()) + " other outcome" + (ignored.size() == 1 ? "" : "s") +
           " of each job, which would give the target away (" + fs::path(notes.source).filename().string() +
           "): " + names;
}

} // namespace gpumem::data
