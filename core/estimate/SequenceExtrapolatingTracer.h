// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/ProbeJobTracer.h"
#include "estimate/StepTracer.h"
#include "probe/JobConfiguration.h"

#include <array>
#include <cstdint>
#include <string>

namespace gpumem::estimate {

// Traces a probe Transformer job at its own sequence length without running it
// there. Each batch's trace is fitted (QuadraticTrace) from three short sequences,
// the first batch's checked against a fourth; a long sequence costs what its language-model
// head and attention cost, which grow with the length, so four short traces take
// a fraction of one long one. Where the short traces do not fit a parabola, the
// job is traced at its own length and extrapolated() says why. Not thread-safe,
// like every tracer.
class SequenceExtrapolatingTracer final : public StepTracer
{
  public:
    // Whether job is one this tracer extrapolates: a Transformer whose sequence is
    // longer than the short ones traced.
    static bool applies(const probe::JobConfiguration &job);

    // job as ProbeJobTracer takes it (applies(job)); throws io::InputError when
    // LibTorch refuses the configuration.
    explicit SequenceExtrapolatingTracer(probe::JobConfiguration job, std::uint64_t memoryLimitBytes = 0);

    const ModelSummary &summary() const override { return mFullLength.summary(); }
    // The job's trace at batchSize and its own sequence length.
    TaggedTrace trace(std::int64_t batchSize) const override;

    // Whether every trace so far came from short sequences; when not, why holds
    // the first misfit.
    bool extrapolated() const { return mWhy.empty(); }
    const std::string &why() const { return mWhy; }
    // The lengths traced: three to fit, the fourth to check.
    const std::array<std::int64_t, 4> &shortLengths() const { return mShortLengths; }

  private:
    probe::JobConfiguration mJob;
    std::uint64_t mMemoryLimitBytes;
    ProbeJobTracer mFullLength;
    std::array<std::int64_t, 4> mShortLengths;
    mutable std::string mWhy;
    mutable bool mChecked = false; // a fit passed the fourth length's check
};

} // namespace gpumem::estimate
