// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"
#include "io/Json.h"

#include <string>

namespace gpumem::report {

// The one JSON form of a comparison's result: the members "splits", "models",
// "best", "significance", "failures", "cancelled", "seconds" and "warnings" of
// the comparison report (docs/comparison-report.md). The workbench's project
// file embeds the same members, with the rows' actual values and each model's
// out-of-fold predictions added, so one reader reads both. A comparison that
// calibrated gives each model a "bound" member (report/BoundJson.h).

// What the JSON form holds beyond the report's members.
struct ExperimentJsonOptions
{
    // "actual" and each model's "predictions" and upper bounds, one per dataset
    // row (null where never tested): what the project file keeps for its charts.
    bool withRows = false;
};

// Returns the members as one object.
io::Json experimentJson(const evaluation::ExperimentResult &result, const ExperimentJsonOptions &options = {});

// Reads what experimentJson() wrote (with or without rows). Models are looked up
// in the registry for their hyperparameters; errors throw io::InputError naming source.
evaluation::ExperimentResult readExperimentResult(const io::Json &object, const std::string &source);

} // namespace gpumem::report

namespace gpumem::evaluation {

// The report's form of a result, without rows (report::experimentJson()).
void to_json(io::Json &json, const ExperimentResult &result);

// One item of "significance": {"model", "versus", "test", "p_value", "statistic",
// "paired", "pairs", "reported"}.
void to_json(io::Json &json, const PairedTest &test);
// Reads what to_json() wrote; a missing or null statistic or p-value reads as NaN.
void from_json(const io::Json &json, PairedTest &test);

// One item of "failures": {"model", "message"}.
void to_json(io::Json &json, const ModelFailure &failure);
void from_json(const io::Json &json, ModelFailure &failure);

} // namespace gpumem::evaluation
