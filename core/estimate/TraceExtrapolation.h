// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/TaggedTrace.h"

#include <array>
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
    bool mRunsMatrixProducts = true;
    std::vector<std::int64_t> mIntercepts;
    std::vector<std::int64_t> mSlopes;
};

// A trace whose allocation sizes are quadratic in the sequence length at one
// batch size, fitted from three traces at lengths l, l + d and l + 2d: at length
// l + t·d event i allocates s₀ + t·Δ₁ + t(t − 1)/2·Δ₂ bytes (Newton's forward
// differences, exact in whole bytes for every whole t). Attention's scores grow with
// the square of the length, everything else a Transformer allocates at most
// linearly, so three short sequences give the trace of a long one.
class QuadraticTrace
{
  public:
    // Fits traces made at lengths (equally spaced, ascending) and one batch size.
    // Returns nullopt, with why set to the first difference, when they do not align.
    static std::optional<QuadraticTrace> fit(const std::array<TaggedTrace, 3> &traces,
                                             const std::array<std::int64_t, 3> &lengths, std::string &why);

    // Whether length is one the fit gives exactly: the first length plus a whole
    // number of steps.
    bool reaches(std::int64_t length) const;
    // The trace at length (reaches(length)); a size the fit takes below zero is zero.
    TaggedTrace at(std::int64_t length) const;
    // Whether traced, a trace at a fourth length, is exactly what the fit predicts
    // there: three points always fit a parabola, a fourth tells it from a cubic.
    bool predicts(const TaggedTrace &traced, std::int64_t length, std::string &why) const;

  private:
    std::int64_t mFirstLength = 0;
    std::int64_t mLengthStep = 1;
    std::int64_t mBatchSize = 0;
    std::vector<TaggedEvent> mEvents; // kinds, phases and categories; sizes come from the fit
    bool mRunsMatrixProducts = true;
    std::vector<std::int64_t> mFirstBytes;
    std::vector<std::int64_t> mFirstDifferences;
    std::vector<std::int64_t> mSecondDifferences;
};

} // namespace gpumem::estimate
