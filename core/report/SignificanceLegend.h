// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"

#include <string>

namespace gpumem::report {

// The one description of the significance marks and tests that every report
// format, `gpumem compare`, the Compare page and the workbench's help show.

// Returns "**" for p < 0.01, "*" for p < 0.05, else nothing: the marks beside a p-value.
std::string significanceStars(double pValue);

// What the marks mean: "* p < 0.05, ** p < 0.01".
std::string significanceMarksLegend();

// Which test a comparison reports, whatever its result: the paired t-test over
// fewer than 6 folds, the Wilcoxon signed-rank test from 6, the corrected repeated
// k-fold t-test over repetitions, none below evaluation::minimumReportedPairs.
std::string significanceTestRule();

// The legend of result's p column, as plain text: the reported test and metric,
// the marks, and why the t-test stands in where the folds are too few for the
// Wilcoxon test. Empty when result reports no test.
std::string significanceLegend(const evaluation::ExperimentResult &result);

} // namespace gpumem::report
