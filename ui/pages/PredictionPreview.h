// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"
#include "prediction/Predictor.h"

#include <string>

namespace gpumem::ui {

// Returns the predictions of table as the Predict page's preview shows them, as CSV: each
// job named by the input's identifier column (else its line), memory rounded for reading
// (a CPU probe's few MiB keep decimals, GPU-sized jobs read as whole MiB), and the columns
// upper_bound, actual, error and extrapolated where the predictions have them. The saved
// file itself (prediction::predictionFile) keeps every digit.
std::string previewCsv(const data::Table &table, const prediction::Predictions &predictions);

} // namespace gpumem::ui
