// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/ProbeJobTracer.h"
#include "estimate/StepTracer.h"
#include "probe/JobConfiguration.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::estimate {

// Traces a probe job at its own input size without running it there: a
// Transformer's sequence length, a CNN's image side. Each batch's trace is fitted
// (QuadraticTrace) from three small inputs, the first batch's checked against a
// fourth; a large input costs what its activations cost, which grow with the
// square of the size, so four small traces take a fraction of one large one. A
// third batch that lies on the line of two fitted ones at the smallest input takes
// their line at the job's size. A batch whose small traces do not fit a parabola
// is traced at the job's own size, and extrapolated() says why. The job's network
// is built once for all of them. Not thread-safe, like every tracer.
class ShapeExtrapolatingTracer final : public StepTracer
{
  public:
    // Whether job is one this tracer extrapolates: a Transformer or CNN whose input
    // is large enough that the small traces cost less than its own.
    static bool applies(const probe::JobConfiguration &job);

    // job as ProbeJobTracer takes it (applies(job)); throws io::InputError when
    // LibTorch refuses the configuration.
    explicit ShapeExtrapolatingTracer(probe::JobConfiguration job, std::uint64_t memoryLimitBytes = 0);

    const ModelSummary &summary() const override { return mDirect.summary(); }
    // The job's trace at batchSize and its own input size.
    TaggedTrace trace(std::int64_t batchSize) const override;

    // What is extrapolated: "sequence length" or "resolution".
    const char *axis() const;
    // Whether every trace so far came from small inputs; when not, why holds the
    // first batch traced at the job's size and the reason.
    bool extrapolated() const { return mWhy.empty(); }
    const std::string &why() const { return mWhy; }
    // The sizes traced: three to fit, the fourth to check.
    const std::array<std::int64_t, 4> &smallSizes() const { return mSmallSizes; }

  private:
    // What a batch fitted from small inputs leaves: its trace at the smallest one and
    // the trace extrapolated to the job's size.
    struct FittedBatch
    {
        TaggedTrace smallest;
        TaggedTrace atJobSize;
    };

    // The trace at the job's size of the batch smallest was traced at, from the line
    // of the first two fitted batches, when smallest lies on their line; nullopt when
    // fewer than two are fitted or it does not.
    std::optional<TaggedTrace> onTheLineOfFittedBatches(const TaggedTrace &smallest) const;

    probe::JobConfiguration mJob;
    ProbeJobTracer mDirect; // traces the job at any size, all with one network
    std::array<std::int64_t, 4> mSmallSizes;
    mutable std::string mWhy;
    mutable bool mChecked = false;            // a fit passed the fourth size's check
    mutable std::vector<FittedBatch> mFitted; // the first two batches fitted
};

} // namespace gpumem::estimate
