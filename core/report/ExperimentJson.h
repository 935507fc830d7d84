// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"
#include "io/Json.h"
#include "io/JsonWriter.h"

#include <string>

namespace gpumem::report {

// The one JSON form of a comparison's result: the members "splits", "models",
// "best", "significance", "failures", "cancelled", "seconds" and "warnings" of
// the comparison report (docs/comparison-report.md). The workbench's project
// file embeds the same members, with the rows' actual values and each model's
// out-of-fold predictions added, so one reader reads both. A comparison that
// calibrated gives each model a "bound" member (report/BoundJson.h).

// Writes the members into the object json has open; withRows adds "actual" and
// each model's "predictions" and upper bounds (per dataset row, null where never tested).
void writeExperimentMembers(io::JsonWriter &json, const evaluation::ExperimentResult &result, bool withRows);

// Reads what writeExperimentMembers() wrote (with or without rows). Models are
// looked up in the registry for their hyperparameters; errors throw
// io::InputError naming source.
evaluation::ExperimentResult readExperimentResult(const io::Json &object, const std::string &source);

} // namespace gpumem::report
