// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"

#include <string>

namespace gpumem::report {

// The comparison's finding in one sentence, with its uncertainty, for the top of every
// report (Markdown, HTML, PDF): the model with the lowest mean RMSE and its spread, the
// runner-up, and what the reported significance test says of the difference, e.g.
// "Ridge regression has the lowest RMSE, 21.14 ± 1.752 MiB over 5 folds; XGBoost is
// second, 26.73 ± 2.374 MiB; the difference is significant (paired t-test, p = 0.0123)."
// Every number is written as the reports' tables write it, so the sentence and the
// tables agree to the digit.
std::string findingSentence(const evaluation::ExperimentResult &result);

} // namespace gpumem::report
