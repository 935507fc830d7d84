// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "models/Hyperparameters.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "report/ComparisonReport.h"
#include "runs/RunRecord.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"
#include "workflows/ProjectFile.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace gpumem::data {
class Table;
}
namespace gpumem::evaluation {
struct ExperimentResult;
}

namespace gpumem::ui {

class WorkbenchState;

// The ending of project files (workflows::projectSuffix); Save adds it when the name lacks it.
inline const QString projectSuffix = QString::fromLatin1(workflows::projectSuffix);

// Returns path with projectSuffix appended unless it already ends so.
QString withProjectSuffix(const QString &path);

// Returns whether path names a project file rather than data (by its ending).
bool isProjectPath(const QString &path);

// Returns the folder beside a project that keeps its runs' trained models:
// "study.gpumem.json" keeps them in "study.models".
QString runModelsFolder(const QString &projectPath);

// Saves every run's trained model that is in memory but in no folder yet into
// runModelsFolder(projectPath), one folder per run named after it, and records
// the folder in the run, so that the project keeps its models: they can be saved
// elsewhere or predicted with after the project is opened again. Returns how many
// it saved. Throws io::InputError when a model cannot be saved (those saved
// before it keep their folders).
int saveRunModelsWithProject(const QString &projectPath, WorkbenchState &state);

// Writes state as one JSON project file, atomically (workflows::writeProjectFile).
// Throws io::InputError when the file cannot be written.
void writeProjectFile(const QString &path, const WorkbenchState &state);

// A project file as read and checked, before it changes anything.
struct ProjectContent
{
    QString dataPath;
    std::shared_ptr<const data::Table> table; // null when the project names no data
    std::vector<data::ColumnRole> roles;
    data::BadCellPolicy policy = data::BadCellPolicy::Fail;
    QString preset;
    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    std::shared_ptr<const evaluation::ExperimentResult> comparison;
    // The comparison's report header as saved; projects saved before it was kept have none.
    std::optional<report::ComparisonContext> comparisonContext;
    std::vector<runs::RunRecord> runs;
    QStringList notes; // for the user: the data found elsewhere, or changed since the save
};

// Reads the project file at path and everything it names, checking all of it
// (workflows::readProjectFile), and words its notes for the user. Changes nothing, so
// it may run on any thread (the workbench opens projects in a worker). Throws
// io::InputError naming the file (and line and column for malformed JSON). progress
// and control reach the data file's load: a cancelled open throws data::LoadCancelled.
ProjectContent readProjectContent(const QString &path, runtime::ProgressObserver *progress = nullptr,
                                  const runtime::OperationControl *control = nullptr);

// Applies content to state (GUI thread) and returns its notes for the user.
QStringList applyProjectContent(const ProjectContent &content, WorkbenchState &state);

// Reads a project file into state: loads the data file it names (synchronously),
// applies its roles, hyperparameters and comparison. Returns notes for the user:
// the data file was found beside the project instead of where it was, or its
// content changed since the project was saved. Throws io::InputError naming the
// file (and line and column for malformed JSON) on failure, leaving state as it was.
QStringList readProjectFile(const QString &path, WorkbenchState &state);

} // namespace gpumem::ui
