// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "evaluation/Experiment.h"
#include "io/Json.h"
#include "models/Hyperparameters.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "report/ComparisonReport.h"
#include "runs/RunRecord.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpumem::workflows {

// A workbench project document as its JSON holds it, before anything it names is
// opened: where the data file was (absolute and relative to the project), its
// SHA-256, the bad-cell policy and each named column's role, the neural network's
// preset and values, the last comparison with its report header, and every run
// (model folders relative to the project).
struct ProjectDocument
{
    std::string dataPath;         // absolute; empty when the project names no data
    std::string dataRelativePath; // relative to the project's folder
    std::string dataSha256;       // empty when the data could not be read at the save
    data::BadCellPolicy badCells = data::BadCellPolicy::Fail;
    std::vector<std::pair<std::string, data::ColumnRole>> roles; // by column name
    std::string preset;
    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    std::shared_ptr<const evaluation::ExperimentResult> comparison; // null when none
    // The comparison's report header as saved; projects saved before it was kept have none.
    std::optional<report::ComparisonContext> comparisonContext;
    std::vector<runs::RunRecord> runs;
};

// The project as one JSON document ("format": "gpumem-workbench-project", version 2);
// the comparison in the JSON report's own members with the rows the charts need.
io::Json projectJson(const ProjectDocument &document);

// Reads what projectJson() wrote, and the older versions: a version 1 comparison
// (a form of its own) is left out, to be run again, and projects written before
// the ensemble setting or runs existed train one network and have no runs. Reads
// nothing from disk. Throws io::InputError naming source for anything else.
ProjectDocument readProjectJson(const io::Json &json, const std::string &source);

} // namespace gpumem::workflows
