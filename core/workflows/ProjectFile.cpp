// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/ProjectFile.h"

#include "data/TableLoader.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/JsonDocument.h"
#include "io/Sha256.h"
#include "workflows/CompareWorkflow.h"
#include "workflows/DataWorkflow.h"
#include "workflows/ProjectDocument.h"

#include <filesystem>
#include <system_error>

namespace gpumem::workflows {

namespace {

namespace fs = std::filesystem;

// A path without "." or ".." parts and without a trailing separator, as a
// project's paths have always been written.
std::string cleanPath(const fs::path &path)
{
    std::string text = path.lexically_normal().string();
    while (text.size() > 1 && text.back() == '/')
        text.pop_back();
    return text;
}

std::string absolutePath(const std::string &path)
{
    std::error_code error;
    const fs::path absolute = fs::absolute(path, error);
    return cleanPath(error ? fs::path(path) : absolute);
}

// The folder the project file at projectPath is in, absolute.
fs::path projectFolder(const std::string &projectPath)
{
    return fs::path(absolutePath(projectPath)).parent_path();
}

// path relative to folder; a relative path is kept as it is (cleaned).
std::string relativePath(const fs::path &folder, const std::string &path)
{
    const fs::path file(cleanPath(path));
    if (file.is_relative())
        return file.string();
    const fs::path relative = file.lexically_relative(cleanPath(folder));
    return relative.empty() ? file.string() : relative.string();
}

bool pathExists(const fs::path &path)
{
    std::error_code error;
    return fs::exists(path, error);
}

// The SHA-256 of the data file at path, or nothing when it cannot be read (a save
// still records where the data was).
std::string digestOrNothing(const std::string &path)
{
    try {
        return io::sha256File(path);
    } catch (const io::InputError &) {
        return {};
    }
}

ProjectDocument documentOf(const std::string &path, const Project &project)
{
    ProjectDocument document;
    if (!project.dataPath.empty()) {
        document.dataPath = absolutePath(project.dataPath);
        document.dataRelativePath = relativePath(projectFolder(path), document.dataPath);
        document.dataSha256 = digestOrNothing(project.dataPath);
    }
    document.badCells = project.badCells;
    if (project.table)
        for (std::size_t column = 0; column < project.table->columnCount() && column < project.roles.size(); ++column)
            document.roles.emplace_back(project.table->column(column).name, project.roles[column]);
    document.preset = project.preset;
    document.hyperparameters = project.hyperparameters;
    document.comparison = project.comparison;
    document.comparisonContext = project.comparisonContext;
    // Model folders are kept relative to the project, so that the two can move together.
    document.runs = project.runs;
    for (auto &run : document.runs)
        if (!run.modelFolder.empty())
            run.modelFolder = relativePath(projectFolder(path), run.modelFolder);
    return document;
}

// Finds the data file the document names: where it was, or at the same place
// relative to the project when the two moved together.
std::string locateData(const std::string &path, const std::string &source, const ProjectDocument &document,
                       ProjectNotes &notes)
{
    if (document.dataPath.empty() || pathExists(document.dataPath))
        return document.dataPath;
    if (!document.dataRelativePath.empty()) {
        const fs::path relative = projectFolder(path) / document.dataRelativePath;
        if (pathExists(relative)) {
            notes.dataMovedFrom = document.dataPath;
            return relative.string();
        }
    }
    throw io::InputError(source, 0, 0,
                         "the data file " + document.dataPath +
                             " is missing, and is not beside the project either; move it back or open the "
                             "data and save the project again");
}

std::vector<data::ColumnRole> rolesOf(const data::Table &table, const ProjectDocument &document,
                                      const std::string &source, const std::string &dataPath)
{
    std::vector<data::ColumnRole> roles = data::defaultRoles(table);
    for (const auto &[name, role] : document.roles) {
        const auto column = table.columnIndex(name);
        if (!column)
            throw io::InputError(source, 0, 0,
                                 "the project names column " + io::quoteForMessage(name) + ", which " + dataPath +
                                     " lacks");
        roles[*column] = role;
    }
    return roles;
}

OpenedProject readProject(const std::string &path, runtime::ProgressObserver *observer,
                          const runtime::OperationControl *control)
{
    const std::string &source = path;
    const ProjectDocument document = readProjectJson(io::readJsonFile(path), source);
    OpenedProject opened;
    Project &project = opened.project;
    ProjectNotes &notes = opened.notes;
    project.preset = document.preset;
    project.hyperparameters = document.hyperparameters;
    project.dataPath = locateData(path, source, document, notes);
    // Loaded before it is hashed: the loader refuses a FIFO or device at once and can be cancelled.
    if (!project.dataPath.empty())
        project.table = std::make_shared<const data::Table>(data::loadTable(project.dataPath, {}, observer, control));
    notes.dataChanged = !document.dataSha256.empty() && !project.dataPath.empty() &&
                        io::sha256File(project.dataPath) != document.dataSha256;
    project.badCells = document.badCells;
    if (project.table)
        project.roles = rolesOf(*project.table, document, source, project.dataPath);

    project.comparison = document.comparison;
    project.comparisonContext = document.comparisonContext;
    if (project.comparison && !project.comparisonContext) {
        notes.comparisonWithoutSeed = true;
        if (const auto &splits = project.comparison->splits; splits.size() == 1 && !splits.front().test.empty()) {
            // A hold-out's share, worked back from its split.
            report::ComparisonContext holdOut;
            holdOut.testFraction = static_cast<double>(splits.front().test.size()) /
                                   static_cast<double>(splits.front().test.size() + splits.front().train.size());
            project.comparisonContext = holdOut;
        }
    }

    // Model folders are kept relative to the project (older projects kept them absolute).
    project.runs = document.runs;
    for (auto &run : project.runs) {
        if (run.modelFolder.empty())
            continue;
        const std::string folder = cleanPath(projectFolder(path) / run.modelFolder);
        std::error_code error;
        if (fs::is_regular_file(fs::path(folder) / "model.json", error)) {
            run.modelFolder = folder;
        } else {
            notes.missingModels.push_back({run.name, folder});
            run.modelFolder.clear();
        }
    }
    return opened;
}

} // namespace

void writeProjectFile(const std::string &path, const Project &project)
{
    io::writeFileAtomically(path, io::jsonDocumentText(projectJson(documentOf(path, project))));
}

OpenedProject readProjectFile(const std::string &path, runtime::ProgressObserver *observer,
                              const runtime::OperationControl *control)
{
    try {
        return readProject(path, observer, control);
    } catch (const io::InputError &error) {
        // A member missing or of the wrong type is reported without a file; name the project.
        if (!error.file().empty())
            throw;
        throw io::InputError(path, 0, 0, error.markedMessage());
    }
}

RestoredComparison restoreComparison(const Project &project)
{
    RestoredComparison restored;
    restored.context = project.comparisonContext.value_or(report::ComparisonContext{});
    if (!project.comparison || !project.table)
        return restored;
    DataSelection selected;
    try {
        selected = selectData(project.table, roleRequestOf(*project.table, project.roles), project.badCells);
    } catch (const std::exception &) {
        // Without a usable dataset the comparison still shows its metrics, only not per-row charts.
        return restored;
    }
    // The header is derived as the comparison derived it, from the same data; only
    // how the rows were split was kept (a project saved before that names seed 0).
    evaluation::ExperimentSettings settings;
    settings.testFraction = restored.context.testFraction;
    settings.seed = restored.context.seed;
    const std::string dataName = fs::path(project.dataPath).filename().string();
    restored.context = comparisonContext(selected, dataName, settings, restored.context.groupBy, *project.comparison);
    restored.dataset = selected.dataset;
    return restored;
}

} // namespace gpumem::workflows
