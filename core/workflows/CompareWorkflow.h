// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/Table.h"
#include "evaluation/Experiment.h"
#include "report/ComparisonReport.h"
#include "workflows/DataWorkflow.h"

#include <string>
#include <vector>

namespace gpumem::workflows {

// What a comparison is asked: the experiment (models with their values, folds or
// hold-out, repetitions, seed, calibration, parallel fits) and the column whose
// values the folds keep whole (empty: plain folds).
struct CompareConfiguration
{
    evaluation::ExperimentSettings experiment;
    std::string groupBy;

    // Throws io::InputError, naming the parameter, for a test share outside [0, 1),
    // or repetitions or groups asked of a hold-out. compare() calls it first.
    void validate() const;
};

// A finished comparison: the experiment's result, the report's header and the
// warnings of the models and the experiment, each on one line.
struct CompareResult
{
    evaluation::ExperimentResult experiment;
    report::ComparisonContext context;
    std::vector<std::string> warnings;
};

// Returns the values a compared model starts from: networkValues for the network
// (what a preset, --config or the Model page's form describe), the registry's
// defaults for any other model.
models::Hyperparameters startingValues(const std::string &model, const models::Hyperparameters &networkValues);

// Returns the network's values of the preset called name (models::presetNames()),
// as `gpumem compare --preset` starts from them. Throws io::InputError for an unknown preset.
models::Hyperparameters networkPresetValues(const std::string &name);

// Returns the models to compare, in order, each with its starting values; throws
// io::InputError for a model named twice or one the registry does not know.
// `gpumem compare` and the Compare page choose their models with it.
std::vector<evaluation::ModelSpec> comparedModels(const std::vector<std::string> &names,
                                                  const models::Hyperparameters &networkValues);

// The header of a comparison's reports: the data (dataName, the file as the user
// names it), its target and input columns (features and the sequence, in file
// order), the splitting, the seed and every row's line and job name. `gpumem
// compare` and the Compare page describe their comparisons with it; data must hold a dataset.
report::ComparisonContext comparisonContext(const DataSelection &data, const std::string &dataName,
                                            const evaluation::ExperimentSettings &settings, const std::string &groupBy,
                                            const evaluation::ExperimentResult &result);

// Runs configuration's experiment on data's dataset (grouped by configuration.groupBy
// when set) with observer and control (see evaluation::runExperiment) and describes
// it for the reports, which name the data dataName. An experiment that explains its
// models without inputs of its own is given data's (evaluation::InputEditor). Throws
// io::InputError for unusable settings or data.
CompareResult compare(const DataSelection &data, const std::string &dataName, CompareConfiguration configuration,
                      evaluation::ExperimentObserver *observer = nullptr, runtime::OperationControl *control = nullptr);

} // namespace gpumem::workflows
