// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/EstimateConfiguration.h"
#include "estimate/MemoryEstimator.h"
#include "io/Json.h"

#include <cstdint>
#include <optional>

namespace gpumem::estimate {

// The answers of the searches a language model's estimate may also be asked, at
// its first batch size: each is set when it was asked, to nullopt when nothing fits.
struct SearchAnswers
{
    std::optional<std::optional<std::int64_t>> maxSequenceLength; // the longest sequence that fits
    std::optional<std::optional<std::int64_t>> minGpus;           // the fewest GPUs that hold the job
};

// Returns the document `gpumem estimate --json` prints for result, the estimate of
// configuration: the model, the GPU, how it was traced and each batch size's
// memory in MiB with its breakdown at the peak; a language model adds its
// trainable parameters, sequence length, recipe, GPUs and the answers of the
// searches asked; "max_batch" appears when maxBatchAsked. Its schema is in docs/estimate.md.
io::Json estimateJson(const EstimateConfiguration &configuration, const EstimateResult &result, bool maxBatchAsked,
                      const SearchAnswers &answers = {});

} // namespace gpumem::estimate
