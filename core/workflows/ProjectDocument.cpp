// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/ProjectDocument.h"

#include "io/InputError.h"
#include "report/ExperimentJson.h"

#include <array>

namespace gpumem::workflows {

namespace {

const char *const formatName = "gpumem-workbench-project";
constexpr int formatVersion = 2;

// The "data" member: where the data file is, what it held, and how its columns are used.
io::Json dataJson(const ProjectDocument &document)
{
    io::Json roles = io::Json::object();
    for (const auto &[column, role] : document.roles)
        roles[column] = data::columnRoleName(role);
    return io::Json{{"path", document.dataPath},
                    {"relative_path", document.dataRelativePath},
                    // The digest tells a later open whether the data still is what this project was made on.
                    {"sha256", document.dataSha256},
                    {"bad_cell_policy", data::badCellPolicyName(document.badCells)},
                    {"roles", std::move(roles)}};
}

data::ColumnRole parseRole(const std::string &name, const std::string &source)
{
    constexpr std::array<data::ColumnRole, 4> roles{data::ColumnRole::Feature, data::ColumnRole::Target,
                                                    data::ColumnRole::Sequence, data::ColumnRole::Ignored};
    for (const auto role : roles)
        if (data::columnRoleName(role) == name)
            return role;
    throw io::InputError(source, 0, 0, "unknown role " + io::quoteForMessage(name));
}

void readData(const io::Json &project, const std::string &source, ProjectDocument &document)
{
    const io::Json &data = io::member(project, "data");
    document.dataPath = io::toString(io::member(data, "path"));
    if (const io::Json *relative = io::findMember(data, "relative_path"))
        document.dataRelativePath = io::toString(*relative);
    if (const io::Json *recorded = io::findMember(data, "sha256"))
        document.dataSha256 = io::toString(*recorded);
    document.badCells = data::parseBadCellPolicy(io::toString(io::member(data, "bad_cell_policy")));
    for (const auto &[name, value] : io::toObject(io::member(data, "roles")).items())
        document.roles.emplace_back(name, parseRole(io::toString(value), source));
}

// Reads the comparison and its report header. Version 1 stored comparisons in a
// form of its own; they are left out, to be run again.
void readComparison(const io::Json &project, const std::string &source, ProjectDocument &document)
{
    if (const io::Json *object = io::findMember(project, "comparison");
        object && !object->is_null() && io::numberOr(project, "version", 0) >= 2)
        document.comparison =
            std::make_shared<const evaluation::ExperimentResult>(report::readExperimentResult(*object, source));
    if (!document.comparison)
        return;
    const io::Json *stored = io::findMember(project, "comparison_context");
    if (!stored)
        return;
    try {
        document.comparisonContext = stored->get<report::ComparisonContext>();
    } catch (const io::InputError &error) {
        throw io::InputError(source, 0, 0, "\"comparison_context\": " + error.markedMessage());
    }
}

void readRuns(const io::Json &project, const std::string &source, ProjectDocument &document)
{
    // Projects written before runs were kept have none.
    const io::Json *runs = io::findMember(project, "runs");
    if (!runs)
        return;
    for (const auto &run : io::toArray(*runs)) {
        const std::string which = "run " + std::to_string(document.runs.size() + 1) + ": ";
        try {
            document.runs.push_back(run.get<runs::RunRecord>());
        } catch (const io::InputError &error) {
            throw io::InputError(source, 0, 0, which + error.markedMessage());
        } catch (const std::exception &error) {
            throw io::InputError(source, 0, 0, which + error.what());
        }
    }
}

} // namespace

io::Json projectJson(const ProjectDocument &document)
{
    io::Json project{{"format", formatName},
                     {"version", formatVersion},
                     {"data", dataJson(document)},
                     {"preset", document.preset},
                     {"hyperparameters", document.hyperparameters}};
    // The comparison report's own members, with the rows the charts need: one schema, one reader.
    project["comparison"] =
        document.comparison ? report::experimentJson(*document.comparison, {/*withRows=*/true}) : io::Json();
    if (document.comparison)
        project["comparison_context"] = document.comparisonContext.value_or(report::ComparisonContext{});
    // Every training run, in the one JSON form of a run record.
    project["runs"] = document.runs;
    return project;
}

ProjectDocument readProjectJson(const io::Json &project, const std::string &source)
{
    const io::Json *format = io::findMember(project, "format");
    if (!format || !format->is_string() || io::toString(*format) != formatName)
        throw io::InputError(source, 0, 0, "not a workbench project (no \"format\": \"gpumem-workbench-project\")");
    if (io::numberOr(project, "version", 0) > formatVersion)
        throw io::InputError(source, 0, 0,
                             "written by a newer workbench (version " +
                                 std::to_string(static_cast<int>(io::numberOr(project, "version", 0))) + ")");
    ProjectDocument document;
    // Projects saved before the ensemble setting existed trained one network; later ones name it.
    document.hyperparameters.set("ensemble", std::int64_t{1});
    document.hyperparameters.apply(io::member(project, "hyperparameters"), source);
    document.preset = io::toString(io::member(project, "preset"));
    readData(project, source, document);
    readComparison(project, source, document);
    readRuns(project, source, document);
    return document;
}

} // namespace gpumem::workflows
