// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The direct estimate that the searches for the largest or fewest that fits are checked against.

#include "workflows/LanguageModelEstimates.h"

#include <cstdint>

namespace gpumem::tests {

// Whether settings' job at batch, estimated directly, fits the settings' GPU.
inline bool fitsAtBatch(workflows::EstimateSettings settings, std::int64_t batch)
{
    settings.request.batchSizes = {batch};
    const auto outcome = workflows::estimateModel(settings);
    return outcome.result.estimates.front().fitsOn(outcome.result.profile);
}

} // namespace gpumem::tests
