// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"
#include "prediction/Predictor.h"

namespace gpumem::prediction {

// Returns the predictions of table as a table for people to look through (the
// Predict page's preview): each job named by the input's identifier column (else
// its line), memory rounded for reading (a CPU probe's few MiB keep decimals,
// GPU-sized jobs read as whole MiB), and the columns upper_bound, actual, error and
// extrapolated where the predictions have them. The saved file itself
// (predictionCsv) keeps every digit. Any thread.
data::Table predictionPreview(const data::Table &table, const Predictions &predictions);

} // namespace gpumem::prediction
