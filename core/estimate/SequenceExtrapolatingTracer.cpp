// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/SequenceExtrapolatingTracer.h"

#include "estimate/TraceExtrapolation.h"

namespace gpumem::estimate {

namespace {

// Short lengths 4 apart, congruent to the job's modulo 4 so that the fit reaches it
// in whole steps. The work of a trace grows with its tokens, so the shorter the
// better, as long as every kernel takes the path it takes at the job's length: the
// fourth length's check, and the tests against direct traces, say that it does.
constexpr std::int64_t kLengthStep = 4;

std::array<std::int64_t, 4> shortLengthsFor(std::int64_t length)
{
    const std::int64_t first = kLengthStep + length % kLengthStep;
    return {first, first + kLengthStep, first + 2 * kLengthStep, first + 3 * kLengthStep};
}

} // namespace

bool SequenceExtrapolatingTracer::applies(const probe::JobConfiguration &job)
{
    return job.family == probe::JobFamily::Transformer && job.sequenceLength > shortLengthsFor(job.sequenceLength)[3];
}

SequenceExtrapolatingTracer::SequenceExtrapolatingTracer(probe::JobConfiguration job, std::uint64_t memoryLimitBytes)
    : mJob(std::move(job))
    , mMemoryLimitBytes(memoryLimitBytes)
    , mFullLength(mJob, memoryLimitBytes)
    , mShortLengths(shortLengthsFor(mJob.sequenceLength))
{
}

TaggedTrace SequenceExtrapolatingTracer::trace(std::int64_t batchSize) const
{
    if (!extrapolated())
        return mFullLength.trace(batchSize);
    const auto traceAtLength = [&](std::int64_t length) {
        probe::JobConfiguration shorter = mJob;
        shorter.sequenceLength = static_cast<int>(length);
        return ProbeJobTracer::traceJob(shorter, batchSize, mMemoryLimitBytes);
    };
    std::string why;
    const std::optional<QuadraticTrace> fitted = QuadraticTrace::fit(
        {traceAtLength(mShortLengths[0]), traceAtLength(mShortLengths[1]), traceAtLength(mShortLengths[2])},
        {mShortLengths[0], mShortLengths[1], mShortLengths[2]}, why);
    // The fourth length checks the first batch traced: a size that leaves the
    // parabola at one batch leaves it at every batch, and MemoryEstimator checks the
    // batches against their line.
    const bool checked =
        mChecked || (fitted && fitted->predicts(traceAtLength(mShortLengths[3]), mShortLengths[3], why));
    if (fitted && checked) {
        mChecked = true;
        return fitted->at(mJob.sequenceLength);
    }
    mWhy = "batch " + std::to_string(batchSize) + ": " + why;
    return mFullLength.trace(batchSize);
}

} // namespace gpumem::estimate
