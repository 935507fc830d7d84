// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/GpuProfile.h"

#include <QString>

#include <cstdint>
#include <vector>

class QTableWidget;

namespace gpumem::estimate {
struct EstimateResult;
}

namespace gpumem::ui {

// Gives table the columns of the estimates: batch, allocated, reserved, device
// total, fits and the breakdown at the peak.
void prepareEstimateTable(QTableWidget *table);
// Fills table with one row per batch size of result, in MiB with one decimal as
// gpumem estimate prints them.
void fillEstimateTable(QTableWidget *table, const estimate::EstimateResult &result);

// Gives table the columns of the GPU profiles: name, total, fits, spare, largest batch.
void prepareProfileTable(QTableWidget *table);
// Fills table with a row per profile: result's estimate at batch with the
// profile's own context and workspace, whether it fits, the MiB to spare and
// the largest batch that fits it. Empty when result has no estimate at batch.
void fillProfileTable(QTableWidget *table, const estimate::EstimateResult &result,
                      const std::vector<estimate::GpuProfile> &profiles, std::int64_t batch);

// The lines above the table (rich text): the model and GPU, the largest batch
// that fits, how the trace was made and the notes.
QString estimateSummary(const QString &modelPath, const estimate::EstimateResult &result);

} // namespace gpumem::ui
