// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/TraceExtrapolation.h"

#include <algorithm>

namespace gpumem::estimate {

namespace {

std::string batchName(std::int64_t batchSize)
{
    return "batch " + std::to_string(batchSize);
}

std::string sizeName(const std::string &axis, std::int64_t size)
{
    return axis + " " + std::to_string(size);
}

// Why b's events are not a's (in number, or in an event's kind, phase, category, released
// allocation or choice of algorithms); empty when they align. Sizes are the fits' business.
std::string misalignment(const TaggedTrace &a, const std::string &aName, const TaggedTrace &b, const std::string &bName)
{
    if (a.events.size() != b.events.size())
        return aName + " makes " + std::to_string(a.events.size()) + " allocation events, " + bName + " makes " +
               std::to_string(b.events.size());
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const TaggedEvent &x = a.events[i];
        const TaggedEvent &y = b.events[i];
        if (x.allocation != y.allocation || x.phase != y.phase || x.category != y.category ||
            x.algorithms.has_value() != y.algorithms.has_value())
            return "event " + std::to_string(i) + " differs between " + aName + " and " + bName + " (" +
                   std::string(phaseName(x.phase)) + " " + std::string(categoryName(x.category)) + " against " +
                   std::string(phaseName(y.phase)) + " " + std::string(categoryName(y.category)) + ")";
    }
    return {};
}

std::uint64_t clampedBytes(long double bytes)
{
    // A size past 2^63 (a language model's logits at an absurd batch) stays there, far
    // beyond what the allocator simulation accepts, rather than overflowing the cast.
    constexpr long double largest = 9223372036854775808.0L; // 2^63
    return bytes <= 0 ? 0 : bytes >= largest ? std::uint64_t{1} << 63 : static_cast<std::uint64_t>(bytes);
}

// How many sizes the fits follow for event: its bytes, or its two algorithms'.
std::size_t fittedSizeCount(const TaggedEvent &event)
{
    return event.algorithms ? 2 : 1;
}

FittedSizes fittedSizes(const TaggedEvent &event)
{
    if (event.algorithms)
        return {static_cast<std::int64_t>((*event.algorithms)[0]), static_cast<std::int64_t>((*event.algorithms)[1])};
    return {static_cast<std::int64_t>(event.bytes), 0};
}

// Gives the allocation event the sizes that sizeAt(k) computes for each size it follows.
template <typename SizeAt> void setFittedSizes(TaggedEvent &event, SizeAt sizeAt)
{
    if (!event.algorithms) {
        event.bytes = clampedBytes(sizeAt(0));
        return;
    }
    event.algorithms = AlgorithmBytes{clampedBytes(sizeAt(0)), clampedBytes(sizeAt(1))};
    event.bytes = std::min((*event.algorithms)[0], (*event.algorithms)[1]);
}

// A release gives back what its allocation took.
void sizeReleases(TaggedTrace &trace)
{
    for (auto &event : trace.events)
        if (event.isRelease())
            event.bytes = trace.events[static_cast<std::size_t>(event.allocation)].bytes;
}

// Sets why to the first allocation of traced whose size is not predicted's.
bool sameSizes(const TaggedTrace &predicted, const TaggedTrace &traced, const std::string &where,
               const std::string &fitName, std::string &why)
{
    for (std::size_t i = 0; i < traced.events.size(); ++i) {
        const TaggedEvent &found = traced.events[i];
        if (!found.isRelease() && predicted.events[i].bytes != found.bytes) {
            why = "allocation " + std::to_string(i) + " at " + where + " is " + std::to_string(found.bytes) +
                  " bytes, " + fitName + " gives " + std::to_string(predicted.events[i].bytes);
            return false;
        }
    }
    return true;
}

} // namespace

std::optional<AffineTrace> AffineTrace::fit(const TaggedTrace &small, const TaggedTrace &large, std::string &why)
{
    const std::int64_t step = large.batchSize - small.batchSize;
    if (step <= 0) {
        why = "the second trace's batch must be larger than the first's";
        return std::nullopt;
    }
    why = misalignment(small, batchName(small.batchSize), large, batchName(large.batchSize));
    if (!why.empty())
        return std::nullopt;
    AffineTrace trace;
    trace.mEvents = small.events;
    trace.mRunsMatrixProducts = small.runsMatrixProducts;
    trace.mIntercepts.resize(small.events.size());
    trace.mSlopes.resize(small.events.size());
    for (std::size_t i = 0; i < small.events.size(); ++i) {
        if (small.events[i].isRelease())
            continue;
        const FittedSizes a = fittedSizes(small.events[i]);
        const FittedSizes b = fittedSizes(large.events[i]);
        for (std::size_t k = 0; k < fittedSizeCount(small.events[i]); ++k) {
            // Sizes are products of whole dimensions, so a size affine in the batch
            // grows by a whole number of bytes per sample.
            const std::int64_t growth = b[k] - a[k];
            if (growth % step != 0) {
                why = "allocation " + std::to_string(i) + " is not affine in the batch (" + std::to_string(a[k]) +
                      " bytes at batch " + std::to_string(small.batchSize) + ", " + std::to_string(b[k]) +
                      " at batch " + std::to_string(large.batchSize) + ")";
                return std::nullopt;
            }
            trace.mSlopes[i][k] = growth / step;
            trace.mIntercepts[i][k] = a[k] - trace.mSlopes[i][k] * small.batchSize;
        }
    }
    return trace;
}

TaggedTrace AffineTrace::at(std::int64_t batchSize) const
{
    TaggedTrace trace;
    trace.batchSize = batchSize;
    trace.events = mEvents;
    trace.runsMatrixProducts = mRunsMatrixProducts;
    for (std::size_t i = 0; i < trace.events.size(); ++i)
        if (!trace.events[i].isRelease())
            setFittedSizes(trace.events[i], [&](std::size_t k) {
                return static_cast<long double>(mIntercepts[i][k]) +
                       static_cast<long double>(mSlopes[i][k]) * static_cast<long double>(batchSize);
            });
    sizeReleases(trace);
    return trace;
}

bool AffineTrace::predicts(const TaggedTrace &traced, std::string &why) const
{
    const TaggedTrace predicted = at(traced.batchSize);
    const std::string where = batchName(traced.batchSize);
    why = misalignment(predicted, "the fit", traced, where);
    return why.empty() && sameSizes(predicted, traced, where, "the line through the smaller batches", why);
}

std::optional<QuadraticTrace> QuadraticTrace::fit(const std::array<TaggedTrace, 3> &traces,
                                                  const std::array<std::int64_t, 3> &sizes, std::string &why,
                                                  const std::string &axis)
{
    const std::int64_t step = sizes[1] - sizes[0];
    if (step <= 0 || sizes[2] - sizes[1] != step) {
        why = "the " + axis + "s must be equally spaced and ascending";
        return std::nullopt;
    }
    for (std::size_t k = 1; k < 3; ++k) {
        why = traces[k].batchSize != traces[0].batchSize
                  ? "the traces are of different batch sizes"
                  : misalignment(traces[0], sizeName(axis, sizes[0]), traces[k], sizeName(axis, sizes[k]));
        if (!why.empty())
            return std::nullopt;
    }
    QuadraticTrace trace;
    trace.mAxis = axis;
    trace.mFirstSize = sizes[0];
    trace.mSizeStep = step;
    trace.mBatchSize = traces[0].batchSize;
    trace.mEvents = traces[0].events;
    trace.mRunsMatrixProducts = traces[0].runsMatrixProducts;
    const std::size_t count = trace.mEvents.size();
    trace.mFirstBytes.resize(count);
    trace.mFirstDifferences.resize(count);
    trace.mSecondDifferences.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::array<FittedSizes, 3> sizesAt = {fittedSizes(traces[0].events[i]), fittedSizes(traces[1].events[i]),
                                                    fittedSizes(traces[2].events[i])};
        for (std::size_t k = 0; k < fittedSizeCount(trace.mEvents[i]); ++k) {
            trace.mFirstBytes[i][k] = sizesAt[0][k];
            trace.mFirstDifferences[i][k] = sizesAt[1][k] - sizesAt[0][k];
            trace.mSecondDifferences[i][k] = sizesAt[2][k] - 2 * sizesAt[1][k] + sizesAt[0][k];
        }
    }
    return trace;
}

bool QuadraticTrace::reaches(std::int64_t size) const
{
    return size >= mFirstSize && (size - mFirstSize) % mSizeStep == 0;
}

TaggedTrace QuadraticTrace::at(std::int64_t size) const
{
    // Whole steps keep t(t − 1)/2 whole, so the sizes stay exact.
    const auto t = static_cast<long double>((size - mFirstSize) / mSizeStep);
    TaggedTrace trace;
    trace.batchSize = mBatchSize;
    trace.events = mEvents;
    trace.runsMatrixProducts = mRunsMatrixProducts;
    for (std::size_t i = 0; i < trace.events.size(); ++i)
        if (!trace.events[i].isRelease())
            setFittedSizes(trace.events[i], [&](std::size_t k) {
                return static_cast<long double>(mFirstBytes[i][k]) +
                       t * static_cast<long double>(mFirstDifferences[i][k]) +
                       t * (t - 1) / 2 * static_cast<long double>(mSecondDifferences[i][k]);
            });
    sizeReleases(trace);
    return trace;
}

bool QuadraticTrace::predicts(const TaggedTrace &traced, std::int64_t size, std::string &why) const
{
    if (!reaches(size) || traced.batchSize != mBatchSize) {
        why = "the check trace is not at a " + mAxis + " and batch the fit reaches";
        return false;
    }
    const TaggedTrace predicted = at(size);
    const std::string where = sizeName(mAxis, size);
    why = misalignment(predicted, "the fit", traced, where);
    return why.empty() && sameSizes(predicted, traced, where, "the parabola through the smaller " + mAxis + "s", why);
}

} // namespace gpumem::estimate
