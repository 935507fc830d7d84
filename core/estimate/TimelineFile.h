// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/TraceReplay.h"

#include <string>
#include <vector>

namespace gpumem::estimate {

// Writes a replay's timeline atomically to path: CSV (event, phase, category,
// allocated_mib, reserved_mib) for a .csv name, a JSON object
// {"batch_size", "events": [{…}]} with the same keys for a .json name; throws
// io::InputError for any other name or when the file cannot be written.
// Throws io::InputError unless path names a .csv or .json file: checked before
// the model runs, so a mistyped name costs nothing.
void checkTimelinePath(const std::string &path);

void writeTimeline(const std::string &path, std::int64_t batchSize, const std::vector<TimelinePoint> &timeline);

} // namespace gpumem::estimate
