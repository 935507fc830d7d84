// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"

#include <QString>

#include <cstddef>

namespace gpumem::ui {

// The Data page's statistics of one column (rich text): its name and type, present,
// missing and invalid cells, then by type the range, mean and spread, the most
// frequent values, or the layers per row, and why it cannot be the target when it
// cannot (data::summarizeColumn decides every figure).
QString columnSummaryText(const data::Column &column, std::size_t rowCount);

} // namespace gpumem::ui
