// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Metrics.h"
#include "io/JsonValue.h"
#include "io/JsonWriter.h"

namespace gpumem::report {

// The one JSON form of a set of metrics, shared by the comparison report, the
// training summary and the workbench's project file: an object with every key of
// evaluation::metricDescriptions() (non-finite values as null).
void writeMetrics(io::JsonWriter &json, const evaluation::RegressionMetrics &metrics);

// Reads what writeMetrics() wrote. A key that is missing (a file saved before the
// metric existed) or null reads as NaN, shown as missing, never as 0. Throws
// io::InputError when a value is neither a number nor null.
evaluation::RegressionMetrics readMetrics(const io::JsonValue &object);

} // namespace gpumem::report
