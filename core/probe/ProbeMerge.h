// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/ProbeRunner.h"

#include <string>
#include <vector>

namespace gpumem::probe {

// Joins the files of a probe's shards (ProbeOptions::shardIndex/shardCount) into
// the CSV one run of the whole probe writes: the header, then every
// configuration of options' job list (family, seed, count, steps, device) in
// order, each row byte for byte as its shard wrote it; of a configuration that
// several shards drew (and so measured), the row of the first file given. Throws
// io::InputError for a count above maxProbeJobs, naming the file and line of a row
// that is not in the job list (a shard of another probe) or is in two rows of one
// file or in more files than the list draws it (overlapping shards), or naming
// the first configuration no file holds (a shard missing or not finished).
std::string mergeProbeFiles(const std::vector<std::string> &paths, const ProbeOptions &options);

} // namespace gpumem::probe
