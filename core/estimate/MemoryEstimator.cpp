// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/MemoryEstimator.h"

#include "estimate/EstimateCancelled.h"
#include "estimate/EstimateConfiguration.h"
#include "estimate/MemoryUnits.h"
#include "estimate/TraceExtrapolation.h"
#include "io/InputError.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace gpumem::estimate {

namespace {

// The largest batch of an extrapolating trace that fits profiles, each replay made
// once: the replayed bytes do not depend on the profile, only its constants do.
class LargestBatchSearch
{
  public:
    LargestBatchSearch(const AffineTrace &affine, const runtime::OperationControl *control)
        : mAffine(affine)
        , mControl(control)
    {
    }

    // The largest batch that fits profile (0 when batch 1 does not), and whether the
    // search reached its end without finding one that fails.
    std::pair<std::int64_t, bool> search(const GpuProfile &profile)
    {
        if (!fitsAt(1, profile))
            return {0, false};
        // Memory grows with the batch, so the largest fitting batch lies between the
        // last doubling that fits and the first that does not.
        std::int64_t fitting = 1;
        std::int64_t failing = 2;
        while (failing <= largestBatch && fitsAt(failing, profile)) {
            fitting = failing;
            failing *= 2;
        }
        if (failing > largestBatch)
            return {fitting, true};
        while (failing - fitting > 1) {
            const std::int64_t middle = fitting + (failing - fitting) / 2;
            (fitsAt(middle, profile) ? fitting : failing) = middle;
        }
        return {fitting, false};
    }

  private:
    bool fitsAt(std::int64_t batch, const GpuProfile &profile)
    {
        auto found = mReplayed.find(batch);
        if (found == mReplayed.end()) {
            // A replay of a large model takes a while, and a search makes dozens.
            stopIfCancelled(mControl);
            found = mReplayed.emplace(batch, MemoryEstimator::estimateOf(mAffine.at(batch), profile)).first;
        }
        BatchEstimate onProfile = found->second;
        onProfile.useProfile(profile);
        return onProfile.fitsOn(profile);
    }

    const AffineTrace &mAffine;
    const runtime::OperationControl *mControl;
    std::map<std::int64_t, BatchEstimate> mReplayed;
};

// Reports an estimate's share done, one step per trace, replayed batch and
// largest-batch search, and stops it when its control is cancelled.
class EstimateProgress
{
  public:
    EstimateProgress(const EstimateRequest &request, runtime::ProgressObserver *observer,
                     const runtime::OperationControl *control)
        : mThrottle(observer)
        , mControl(control)
        // Three traces when the first pair extrapolates; more are rare, and held below 1.
        , mSteps(3.0 + static_cast<double>(request.batchSizes.size()) +
                 (request.maxBatch ? 1.0 + static_cast<double>(request.maxBatchAlsoFor.size()) : 0.0))
    {
    }

    void stepDone()
    {
        mDone += 1.0;
        mThrottle.advance(std::min(mDone / mSteps, 0.99));
        stopIfCancelled(mControl);
    }

    void finish() { mThrottle.advance(1.0); }

  private:
    runtime::ProgressThrottle mThrottle;
    const runtime::OperationControl *mControl;
    double mSteps;
    double mDone = 0.0;
};

// The traces of the small batches, and the line through them when they align.
struct AlignedTraces
{
    std::optional<AffineTrace> affine;
    std::vector<TaggedTrace> traced; // every trace made, reused when a batch asked for is one of them
    std::string why;                 // why they do not align
};

AlignedTraces traceSmallBatches(const StepTracer &tracer, const EstimateRequest &request, EstimateProgress &progress)
{
    AlignedTraces aligned;
    std::optional<AffineTrace> &affine = aligned.affine;
    std::string &why = aligned.why;
    bool curved = false; // a third batch left the line: larger pairs would not straighten it
    for (std::size_t pair = 0; pair < request.tracedPairs.size() && !affine && !curved; ++pair) {
        const auto [smallBatch, largeBatch] = request.tracedPairs[pair];
        const bool last = pair + 1 == request.tracedPairs.size();
        // A batch the previous pair traced (its larger one) is not traced again.
        const auto earlier = std::find_if(aligned.traced.begin(), aligned.traced.end(),
                                          [&](const TaggedTrace &trace) { return trace.batchSize == smallBatch; });
        std::optional<TaggedTrace> small;
        if (earlier != aligned.traced.end()) {
            small = *earlier;
        } else {
            try {
                small = tracer.trace(smallBatch);
            } catch (const io::InputError &) {
                // Only the last pair's failure is the model's answer; batch 1 may be refused alone.
                if (last)
                    throw;
                continue;
            }
            progress.stepDone();
        }
        TaggedTrace large = tracer.trace(largeBatch);
        progress.stepDone();
        affine = AffineTrace::fit(*small, large, why);
        if (!affine)
            why = "batch " + std::to_string(smallBatch) + " and " + std::to_string(largeBatch) + ": " + why;
        if (earlier == aligned.traced.end())
            aligned.traced.push_back(std::move(*small));
        aligned.traced.push_back(std::move(large));
        if (affine) {
            // A third batch beyond the two checks the line before anything is extrapolated.
            TaggedTrace check = tracer.trace(2 * largeBatch - smallBatch);
            progress.stepDone();
            if (!affine->predicts(check, why)) {
                affine.reset();
                curved = true;
                why = "batch " + std::to_string(smallBatch) + ", " + std::to_string(largeBatch) + " and " +
                      std::to_string(check.batchSize) + ": " + why;
            }
            aligned.traced.push_back(std::move(check));
        }
    }
    return aligned;
}

} // namespace

std::vector<std::pair<std::int64_t, std::int64_t>> EstimateRequest::defaultTracedPairs()
{
    return {{1, 2}, {2, 4}};
}

double BatchEstimate::deviceTotalMib() const
{
    return mibOf(peakReservedBytes) + workspaceMib + contextMib + ncclMib;
}

void BatchEstimate::useProfile(const GpuProfile &profile)
{
    workspaceMib = runsMatrixProducts ? profile.workspaceMib : 0.0;
    contextMib = runsMatrixProducts ? profile.contextMib : profile.contextMib - profile.cublasContextMib;
    ncclMib = profile.communicators * profile.ncclMib;
}

bool BatchEstimate::fitsOn(const GpuProfile &profile) const
{
    return deviceTotalMib() <= profile.capacityMib;
}

std::uint64_t BatchEstimate::allocatorOverheadBytes() const
{
    const std::uint64_t requested = std::accumulate(bytesAtPeak.begin(), bytesAtPeak.end(), std::uint64_t{0});
    return peakReservedBytes > requested ? peakReservedBytes - requested : 0;
}

BatchEstimate MemoryEstimator::estimateOf(const TaggedTrace &trace, const GpuProfile &profile,
                                          std::vector<TimelinePoint> *timeline)
{
    ReplayResult replay = replayTrace(trace, timeline != nullptr);
    BatchEstimate estimate;
    estimate.batchSize = trace.batchSize;
    estimate.peakAllocatedBytes = replay.peakAllocatedBytes;
    estimate.peakReservedBytes = replay.peakReservedBytes;
    estimate.peakRequestedBytes = peakRequestedBytes(trace);
    estimate.bytesAtPeak = replay.bytesAtPeak;
    estimate.runsMatrixProducts = trace.runsMatrixProducts;
    estimate.useProfile(profile);
    if (timeline != nullptr)
        *timeline = std::move(replay.timeline);
    return estimate;
}

EstimateResult MemoryEstimator::estimate(const StepTracer &tracer, const GpuProfile &profile,
                                         const EstimateRequest &request, runtime::ProgressObserver *observer,
                                         const runtime::OperationControl *control)
{
    EstimateResult result;
    result.model = tracer.summary();
    result.profile = profile;
    EstimateProgress progress(request, observer, control);
    AlignedTraces aligned = traceSmallBatches(tracer, request, progress);
    std::optional<AffineTrace> &affine = aligned.affine;
    std::vector<TaggedTrace> &traced = aligned.traced;
    result.extrapolated = affine.has_value();
    for (const auto &trace : traced)
        result.tracedBatches.push_back(trace.batchSize);
    if (!affine)
        result.notes.push_back("the small traces do not align (" + aligned.why +
                               "); each batch size was traced directly");

    const auto tracedAt = [&](std::int64_t batch) -> const TaggedTrace * {
        for (const auto &trace : traced)
            if (trace.batchSize == batch)
                return &trace;
        return nullptr;
    };
    const auto traceAt = [&](std::int64_t batch) {
        if (const TaggedTrace *trace = tracedAt(batch))
            return *trace;
        if (affine)
            return affine->at(batch);
        result.tracedBatches.push_back(batch);
        try {
            return tracer.trace(batch);
        } catch (const TraceOutOfMemory &error) {
            // Left unexplained, a user would wonder why the whole batch had to fit on this machine.
            throw TraceOutOfMemory(error.file(), error.line(), error.column(),
                                   error.markedMessage() +
                                       "; it was traced whole because the small traces do not align (" + aligned.why +
                                       ")");
        }
    };
    for (const std::int64_t batch : request.batchSizes) {
        const bool keepTimeline = request.timelineBatch && *request.timelineBatch == batch && result.timeline.empty();
        BatchEstimate estimate = estimateOf(traceAt(batch), profile, keepTimeline ? &result.timeline : nullptr);
        estimate.measuredDirectly = !affine || tracedAt(batch) != nullptr;
        result.estimates.push_back(estimate);
        progress.stepDone();
    }
    if (!result.estimates.empty() && !result.estimates.front().runsMatrixProducts)
        result.notes.push_back("the forward pass multiplies no matrices, so the process holds no cuBLAS handle: "
                               "neither the profile's workspace_mib nor its cublas_context_mib is counted");

    if (request.maxBatch) {
        if (!affine) {
            result.notes.push_back("--max-batch needs traces that extrapolate; none was searched");
        } else {
            LargestBatchSearch search(*affine, control);
            const auto [largest, exhausted] = search.search(profile);
            result.maxBatch = largest;
            if (largest == 0)
                result.notes.push_back("not even batch 1 fits " + profile.name);
            else if (exhausted)
                result.notes.push_back("every batch up to " + std::to_string(largestBatch) + " fits");
            progress.stepDone();
            for (const GpuProfile &other : request.maxBatchAlsoFor) {
                result.maxBatchByProfile.emplace_back(other.name, search.search(other).first);
                progress.stepDone();
            }
        }
    }
    progress.finish();
    return result;
}

} // namespace gpumem::estimate
