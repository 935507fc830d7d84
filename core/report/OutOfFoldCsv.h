// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"

#include <cstddef>
#include <string>
#include <vector>

namespace gpumem::report {

// Returns the out-of-fold predictions of a comparison as CSV (`gpumem compare
// --predictions`): one row per row of the data file (tableRows of them), in file
// order, with the test fold of the first repetition that scored it ("train" for a
// hold-out's training rows), the actual value and every model's out-of-fold
// prediction, then, when the comparison calibrated, every model's upper bound.
// usableRows maps the experiment's rows to file rows; rows the data left out keep
// their place with empty cells.
std::string outOfFoldCsv(std::size_t tableRows, const std::vector<std::size_t> &usableRows,
                         const evaluation::ExperimentResult &result);

} // namespace gpumem::report
