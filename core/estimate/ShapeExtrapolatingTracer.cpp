// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ShapeExtrapolatingTracer.h"

#include "estimate/TraceExtrapolation.h"

namespace gpumem::estimate {

namespace {

// A Transformer's sequence lengths step by 2 from 2 or more: every kernel takes the
// path it takes at the job's length (the fourth length's check, and the tests against
// direct traces, say so), where a single token does not (lengths 1, 2 and 3 leave
// the parabola). Its head's gradients cost the same at every length, the rest grows
// with the tokens, so the shortest lengths that fit are the cheapest.
constexpr std::int64_t kLengthStep = 2;

bool isCnn(const probe::JobConfiguration &job)
{
    return job.family == probe::JobFamily::Cnn;
}

std::int64_t sizeOf(const probe::JobConfiguration &job)
{
    return isCnn(job) ? job.resolution : job.sequenceLength;
}

probe::JobConfiguration atSize(probe::JobConfiguration job, std::int64_t size)
{
    (isCnn(job) ? job.resolution : job.sequenceLength) = static_cast<int>(size);
    return job;
}

// Four small sizes one step apart, congruent to the job's modulo the step so that the
// fit reaches it in whole steps; the work of a trace grows with its input, so the
// smaller the better. Sizes a whole number of steps apart must give every layer a
// size affine in that number: a CNN halves its image in each block (a stride-2
// convolution rounds up, a 2×2 pooling down), so its feature maps are affine in the
// resolution only across resolutions 2^blocks apart. A convolution's output is kept
// at 2×2 or more: at 1×1 a map is channels-last too, and the CPU's batch
// normalisation and convolutions then allocate differently. Pooling halves the map
// after the last convolution, striding in it, so a strided CNN starts a step higher.
std::array<std::int64_t, 4> smallSizesFor(const probe::JobConfiguration &job)
{
    const std::int64_t step = isCnn(job) ? std::int64_t{1} << job.blocks : kLengthStep;
    const std::int64_t steps = isCnn(job) && job.downsampling == "stride" ? 2 : 1;
    const std::int64_t first = steps * step + sizeOf(job) % step;
    return {first, first + step, first + 2 * step, first + 3 * step};
}

// Whether tracing the job's own size costs more than the small ones together: an
// image's activations grow with the square of its side, so three small images of
// half its area or less (and the fourth, once) save most of the work. A Transformer's
// head costs as much at every length; its attention and activations make long
// sequences the expensive ones.
bool worthExtrapolating(const probe::JobConfiguration &job)
{
    const std::array<std::int64_t, 4> small = smallSizesFor(job);
    const std::int64_t size = sizeOf(job);
    if (!isCnn(job))
        return size > small[3];
    const std::int64_t area = small[0] * small[0] + small[1] * small[1] + small[2] * small[2];
    return 2 * area <= size * size;
}

} // namespace

bool ShapeExtrapolatingTracer::applies(const probe::JobConfiguration &job)
{
    // Past 2^20 pixels a side no image is a probe job's; the bound keeps the step whole.
    const bool shaped = job.family == probe::JobFamily::Transformer ||
                        (isCnn(job) && job.blocks >= 1 && job.blocks <= 20 && job.resolution <= (1 << 20));
    return shaped && sizeOf(job) > 0 && worthExtrapolating(job);
}

ShapeExtrapolatingTracer::ShapeExtrapolatingTracer(probe::JobConfiguration job, std::uint64_t memoryLimitBytes)
    : mJob(std::move(job))
    , mDirect(mJob, memoryLimitBytes)
    , mSmallSizes(smallSizesFor(mJob))
{
}

const char *ShapeExtrapolatingTracer::axis() const
{
    return isCnn(mJob) ? "resolution" : "sequence length";
}

TaggedTrace ShapeExtrapolatingTracer::trace(std::int64_t batchSize) const
{
    // LibTorch's CPU convolution runs one sample through its native kernels when the
    // input has 20,480 elements or fewer and through oneDNN's above, so a CNN's batch
    // 1 may take other kernels at small images than at its own, and may switch above
    // the fourth size, where no check would see it. From batch 2 the path does not
    // depend on the size. One sample at the job's size costs a sixth of the direct
    // traces at batches 1, 2 and 3.
    if (isCnn(mJob) && batchSize == 1)
        return mDirect.trace(batchSize);
    const auto traceAt = [&](std::int64_t size) { return mDirect.trace(atSize(mJob, size), batchSize); };
    TaggedTrace smallest = traceAt(mSmallSizes[0]);
    if (std::optional<TaggedTrace> onTheLine = onTheLineOfFittedBatches(smallest))
        return *std::move(onTheLine);
    std::string why;
    const std::optional<QuadraticTrace> fitted =
        QuadraticTrace::fit({smallest, traceAt(mSmallSizes[1]), traceAt(mSmallSizes[2])},
                            {mSmallSizes[0], mSmallSizes[1], mSmallSizes[2]}, why, axis());
    // The fourth size checks the first batch that fits: a size that leaves the
    // parabola at one batch leaves it at every batch, and MemoryEstimator checks the
    // batches against their line.
    const bool checked = mChecked || (fitted && fitted->predicts(traceAt(mSmallSizes[3]), mSmallSizes[3], why));
    if (fitted && checked) {
        mChecked = true;
        TaggedTrace atJobSize = fitted->at(sizeOf(mJob));
        if (mFitted.size() < 2)
            mFitted.push_back({std::move(smallest), atJobSize});
        return atJobSize;
    }
    // A batch whose small inputs take other kernels than the job's is traced at the
    // job's size; the others may still fit.
    if (mWhy.empty())
        mWhy = "batch " + std::to_string(batchSize) + ": " + why;
    return mDirect.trace(batchSize);
}

std::optional<TaggedTrace> ShapeExtrapolatingTracer::onTheLineOfFittedBatches(const TaggedTrace &smallest) const
{
    // Every size is affine in the batch at every input size (a term grows with the
    // batch times a polynomial in the size, none with the square of the batch), so a
    // third batch on the line of two fitted ones at the smallest input is on their
    // line at the job's size too. Its trace there is then that line's, at the cost of
    // one small trace instead of three: MemoryEstimator's third batch, the check of
    // its line, is checked here at the smallest input, where it costs least.
    if (mFitted.size() < 2)
        return std::nullopt;
    const bool inOrder = mFitted[0].smallest.batchSize < mFitted[1].smallest.batchSize;
    const FittedBatch &first = mFitted[inOrder ? 0 : 1]; // the smaller batch, as a line's fit takes them
    const FittedBatch &second = mFitted[inOrder ? 1 : 0];
    const std::int64_t batchSize = smallest.batchSize;
    if (batchSize == first.smallest.batchSize || batchSize == second.smallest.batchSize)
        return std::nullopt;
    std::string why;
    const std::optional<AffineTrace> smallLine = AffineTrace::fit(first.smallest, second.smallest, why);
    if (!smallLine || !smallLine->predicts(smallest, why))
        return std::nullopt;
    const std::optional<AffineTrace> line = AffineTrace::fit(first.atJobSize, second.atJobSize, why);
    if (!line)
        return std::nullopt;
    return line->at(batchSize);
}

} // namespace gpumem::estimate
