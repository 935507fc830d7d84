// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/Table.h"
#include "evaluation/Experiment.h"
#include "models/Hyperparameters.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "report/ComparisonReport.h"
#include "runs/RunRecord.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::workflows {

// The ending of project files.
inline constexpr const char *projectSuffix = ".gpumem.json";

// A workbench project as the program holds it: the data file and its table, one
// role per column, the bad-cell policy, the neural network's preset and values,
// the last comparison with its report header, and every training run (model
// folders where they are now).
struct Project
{
    std::string dataPath;                     // empty when the project names no data
    std::shared_ptr<const data::Table> table; // null when the project names no data
    std::vector<data::ColumnRole> roles;      // one per column of table
    data::BadCellPolicy badCells = data::BadCellPolicy::Fail;
    std::string preset;
    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    std::shared_ptr<const evaluation::ExperimentResult> comparison; // null when none
    // The comparison's report header; projects saved before it was kept have none.
    std::optional<report::ComparisonContext> comparisonContext;
    std::vector<runs::RunRecord> runs;
};

// What opening a project found that its user should hear; each front-end words it.
struct ProjectNotes
{
    // Where the data file was saved, when it was missing there and was found at the
    // same place relative to the project instead (Project::dataPath); empty otherwise.
    std::string dataMovedFrom;
    bool dataChanged = false; // the data's SHA-256 differs from the one saved with the project
    // The comparison was saved before projects kept its report header: its reports name seed 0.
    bool comparisonWithoutSeed = false;
    // The runs whose model folder is gone: the run's name and the folder looked for.
    struct MissingModel
    {
        std::string run;
        std::string folder;
    };
    std::vector<MissingModel> missingModels;
};

struct OpenedProject
{
    Project project;
    ProjectNotes notes;
};

// Writes project as one JSON project file at path, atomically: the data file
// (absolute and relative to the project, with its SHA-256), bad-cell
// policy and column roles, the network's preset and values, the comparison
// (metrics per model and fold, out-of-fold predictions, significance), and every
// run with its model folder relative to the project, so the two can move together.
// Throws io::InputError when the file cannot be written.
void writeProjectFile(const std::string &path, const Project &project);

// Reads the project file at path and everything it names, checking all of it: the
// data file is loaded (read as the workbench reads it: what it declares, detected)
// and its digest compared, a missing data file is looked for beside the project,
// model folders are resolved against the project's folder. Changes nothing, so it
// may run on any thread. Throws io::InputError naming the file (and line and
// column for malformed JSON). observer and control reach the data file's load: a
// cancelled open throws data::LoadCancelled.
OpenedProject readProjectFile(const std::string &path, runtime::ProgressObserver *observer = nullptr,
                              const runtime::OperationControl *control = nullptr);

// The comparison of project as its charts need it again: the dataset selected from
// the project's data with its roles and policy, and the report header derived as the
// comparison derived it (only the splitting and seed come from the saved header).
// Without a comparison, or data that no longer gives a dataset, the dataset is null
// and the header is the saved one (or empty).
struct RestoredComparison
{
    std::shared_ptr<const data::Dataset> dataset;
    report::ComparisonContext context;
};
RestoredComparison restoreComparison(const Project &project);

} // namespace gpumem::workflows
