// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/ProjectFile.h"

#include "calibration/CalibrationJson.h"
#include "io/InputError.h"
#include "ui/app/WorkbenchState.h"
#include "ui/widgets/QtText.h"

#include <QDir>
#include <QFileInfo>

namespace gpumem::ui {

namespace {

// A folder name for a run: its name with what a file system may refuse replaced ("run 3" → "run-3").
QString folderNameOf(const std::string &runName)
{
    QString name;
    for (const QChar c : QString::fromStdString(runName))
        name += c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') ? c : QLatin1Char('-');
    while (name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    return name.isEmpty() ? QStringLiteral("run") : name;
}

} // namespace

QString runModelsFolder(const QString &projectPath)
{
    const QFileInfo project(withProjectSuffix(projectPath));
    const QString name = project.fileName();
    return project.absoluteDir().filePath(name.left(name.size() - projectSuffix.size()) + QStringLiteral(".models"));
}

int saveRunModelsWithProject(const QString &projectPath, WorkbenchState &state)
{
    const QDir folder(runModelsFolder(projectPath));
    int saved = 0;
    for (std::size_t index = 0; index < state.runs().size(); ++index) {
        const auto model = state.runModel(index);
        if (!model || !state.runs()[index].modelFolder.empty())
            continue;
        if (!folder.exists() && !QDir().mkpath(folder.path()))
            throw io::InputError(coreText(folder.path()), 0, 0, "cannot create the folder for the runs' models");
        // A new name for each: a folder already there may be another run's, saved before.
        const QString base = folderNameOf(state.runs()[index].name);
        QString directory = folder.filePath(base);
        for (int suffix = 2; QFileInfo::exists(directory); ++suffix)
            directory = folder.filePath(base + QLatin1Char('-') + QString::number(suffix));
        calibration::saveCalibratedModel(*model, std::nullopt, coreText(directory));
        state.setRunModelFolder(index, coreText(directory));
        ++saved;
    }
    return saved;
}

QString withProjectSuffix(const QString &path)
{
    return path.endsWith(projectSuffix, Qt::CaseInsensitive) ? path : path + projectSuffix;
}

bool isProjectPath(const QString &path)
{
    return path.endsWith(projectSuffix, Qt::CaseInsensitive);
}

namespace {

// The state as core's project holds it.
workflows::Project projectOf(const WorkbenchState &state)
{
    workflows::Project project;
    project.dataPath = coreText(state.dataPath());
    project.table = state.table();
    project.roles = state.roles();
    project.badCells = state.badCellPolicy();
    project.preset = coreText(state.presetName());
    project.hyperparameters = state.hyperparameters();
    project.comparison = state.comparison();
    project.comparisonContext = state.comparisonContext();
    project.runs = state.runs();
    return project;
}

// What opening the project found, in the workbench's words.
QStringList notesOf(const workflows::OpenedProject &opened)
{
    const workflows::ProjectNotes &found = opened.notes;
    const QString dataPath = QString::fromStdString(opened.project.dataPath);
    QStringList notes;
    if (!found.dataMovedFrom.empty())
        notes << QObject::tr("The data file %1 was not found; using %2, at the same place relative to the project.")
                     .arg(QString::fromStdString(found.dataMovedFrom), QDir::cleanPath(dataPath));
    if (found.dataChanged)
        notes << QObject::tr("The data file %1 changed since the project was saved: its comparison and "
                             "hyperparameters were made on other data.")
                     .arg(QFileInfo(dataPath).fileName());
    if (found.comparisonWithoutSeed)
        notes << QObject::tr("The comparison was saved before projects kept its seed: its reports name seed 0 "
                             "until it is run again.");
    for (const auto &missing : found.missingModels)
        notes << QObject::tr("The model of %1 is not in %2 any more; its curves and metrics are kept.")
                     .arg(QString::fromStdString(missing.run), QString::fromStdString(missing.folder));
    return notes;
}

} // namespace

void writeProjectFile(const QString &path, const WorkbenchState &state)
{
    workflows::writeProjectFile(coreText(path), projectOf(state));
}

ProjectContent readProjectContent(const QString &path, runtime::ProgressObserver *progress,
                                  const runtime::OperationControl *control)
{
    workflows::OpenedProject opened = workflows::readProjectFile(coreText(path), progress, control);
    ProjectContent content;
    content.notes = notesOf(opened);
    workflows::Project &project = opened.project;
    content.dataPath = QString::fromStdString(project.dataPath);
    content.table = std::move(project.table);
    content.roles = std::move(project.roles);
    content.policy = project.badCells;
    content.preset = QString::fromStdString(project.preset);
    content.hyperparameters = std::move(project.hyperparameters);
    content.comparison = std::move(project.comparison);
    content.comparisonContext = std::move(project.comparisonContext);
    content.runs = std::move(project.runs);
    return content;
}

QStringList applyProjectContent(const ProjectContent &content, WorkbenchState &state)
{
    // Everything is read and checked: only now does the state change.
    state.setBadCellPolicy(content.policy);
    state.setTable(content.table, content.dataPath);
    if (content.table)
        state.setRoles(content.roles);
    state.setPresetName(content.preset);
    state.setHyperparameters(content.hyperparameters);
    workflows::Project project;
    project.dataPath = coreText(content.dataPath);
    project.table = content.table;
    project.roles = state.roles();
    project.badCells = content.policy;
    project.comparison = content.comparison;
    project.comparisonContext = content.comparisonContext;
    workflows::RestoredComparison restored = workflows::restoreComparison(project);
    state.setComparison(content.comparison, restored.dataset, std::move(restored.context));
    state.setRuns(content.runs);
    return content.notes;
}

QStringList readProjectFile(const QString &path, WorkbenchState &state)
{
    return applyProjectContent(readProjectContent(path), state);
}

} // namespace gpumem::ui
