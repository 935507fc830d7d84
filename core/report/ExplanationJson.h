// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"
#include "io/Json.h"

namespace gpumem::report {

// The "explanation" member of a comparison that explained its models
// (evaluation::ExplanationSettings; docs/comparison-report.md): the inputs, the
// partial dependence grids, and per model its permutation importance and its
// partial dependence curves. Absent from comparisons that did not explain.
io::Json explanationJson(const evaluation::ExperimentResult &result);

// Reads what explanationJson() wrote into result, whose models must be read already;
// throws io::InputError (without a file) for a malformed member, an unknown model,
// or counts that do not match the inputs and grids.
void readExplanation(const io::Json &explanation, evaluation::ExperimentResult &result);

} // namespace gpumem::report
