// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/TaggedTrace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::estimate {

// A trace whose allocation sizes are affine in the batch size, fitted from two
// traces of the same model at two batch sizes: event i allocates
// intercept[i] + slope[i] × batch bytes.
class AffineTrace
{
  public:
    // Fits the events of small and large (small.batchSize < large.batchSize).
    // Returns nullopt, with why set to the first difference, when they do not
    // align: a different number of events, or an event whose kind, phase,
    // category or released allocation differs, or a size that is not affine
    // in whole bytes per sample.
    static std::optional<AffineTrace> fit(const TaggedTrace &small, const TaggedTrace &large, std::string &why);

    // The trace at batchSize (≥ 1); a size the fit takes below zero is zero.
    TaggedTrace at(std::int64_t batchSize) const;

    // Whether traced, a trace at a third batch size, is exactly what the fit predicts
    // there. Two traces always fit a line; a third tells a line from a curve (memory
    // that grows with the square of the batch). Sets why to the first difference.
    bool predicts(const TaggedTrace &traced, std::string &why) const;

    std::size_t eventCount() const { return mEvents.size(); }

  private:
    std::vector<TaggedEvent> mEvents; // kinds, phases and categories; sizes come from the fit
    std::vector<std::int64_t> mIntercepts;
    std::vector<std::int64_t> mSlopes;
};

} // namespace gpumem::estimate
