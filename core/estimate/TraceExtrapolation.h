// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/TaggedTrace.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::estimate {

// The sizes a fit follows for one allocation: its bytes, or where they are the lesser of
// two algorithms' workspaces, each algorithm's (the lesser is taken again at the size a
// trace is made at). Unused entries are 0.
using FittedSizes = std::array<std::int64_t, 2>;

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
    std::vector<FittedSizes> mIntercepts;
    std::vector<FittedSizes> mSlopes;
};

// A trace whose allocation sizes are quadratic in one size of the input at one batch
// size (a Transformer's sequence length, a CNN's image side), fitted from three traces
// at sizes l, l + d and l + 2d: at l + t·d event i allocates s₀ + t·Δ₁ + t(t − 1)/2·Δ₂
// bytes (Newton's forward differences, exact in whole bytes for every whole t).
// Attention's scores grow with the square of the length and a feature map with the
// square of the image side, everything else at most linearly, so three small inputs
// give the trace of a large one.
class QuadraticTrace
{
  public:
    // Fits traces made at sizes (equally spaced, ascending) and one batch size;
    // axis names the size in messages ("length", "resolution"). Returns nullopt,
    // with why set to the first difference, when they do not align.
    static std::optional<QuadraticTrace> fit(const std::array<TaggedTrace, 3> &traces,
                                             const std::array<std::int64_t, 3> &sizes, std::string &why,
                                             const std::string &axis = "length");

    // Whether size is one the fit gives exactly: the first size plus a whole
    // number of steps.
    bool reaches(std::int64_t size) const;
    // The trace at size (reaches(size)); an allocation the fit takes below zero is zero.
    TaggedTrace at(std::int64_t size) const;
    // Whether traced, a trace at a fourth size, is exactly what the fit predicts
    // there: three points always fit a parabola, a fourth tells it from a cubic.
    bool predicts(const TaggedTrace &traced, std::int64_t size, std::string &why) const;

  private:
    std::string mAxis;
    std::int64_t mFirstSize = 0;
    std::int64_t mSizeStep = 1;
    std::int64_t mBatchSize = 0;
    std::vector<TaggedEvent> mEvents; // kinds, phases and categories; sizes come from the fit
    bool mRunsMatrixProducts = true;
    std::vector<FittedSizes> mFirstBytes;
    std::vector<FittedSizes> mFirstDifferences;
    std::vector<FittedSizes> mSecondDifferences;
};

} // namespace gpumem::estimate
