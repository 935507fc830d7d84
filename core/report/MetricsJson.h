// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Metrics.h"
#include "io/Json.h"

namespace gpumem::evaluation {

// The one JSON form of a set of metrics, shared by the comparison report, the
// training summary and the workbench's project file: an object with every key of
// metricDescriptions() (non-finite values are written as null).
void to_json(io::Json &json, const RegressionMetrics &metrics);
// Reads what to_json() wrote. A key that is missing (a file saved before the
// metric existed) or null reads as NaN, shown as missing, never as 0. Throws
// io::InputError when a value is neither a number nor null.
void from_json(const io::Json &json, RegressionMetrics &metrics);

} // namespace gpumem::evaluation
