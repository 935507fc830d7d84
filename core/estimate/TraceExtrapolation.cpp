// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/TraceExtrapolation.h"

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

// Why b's events are not a's (in number, or in an event's kind, phase, category or
// released allocation); empty when they align. Sizes are the fits' business.
std::string misalignment(const TaggedTrace &a, const std::string &aName, const TaggedTrace &b, const std::string &bName)
{
    if (a.events.size() != b.events.size())
        return aName + " makes " + std::to_string(a.events.size()) + " allocation events, " + bName + " makes " +
               std::to_string(b.events.size());
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const TaggedEvent &x = a.events[i];
        const TaggedEvent &y = b.events[i];
        if (x.allocation != y.allocation || x.phase != y.phase || x.category != y.category)
            return "event " + std::to_string(i) + " differs between " + aName + " and " + bName + " (" +
                   std::string(phaseName(x.phase)) + " " + std::string(categoryName(x.category)) + " against " +
                   std::string(phaseName(y.phase)) + " " + std::string(categoryName(y.category)) + ")";
    }
    return {};
}

std::uint64_t clampedBytes(long double bytes)
{
    return bytes <= 0 ? 0 : static_cast<std::uint64_t>(bytes);
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
        const TaggedEvent &a = small.events[i];
        const TaggedEvent &b = large.events[i];
        if (a.isRelease())
            continue;
        // Sizes are products of whole dimensions, so a size affine in the batch
        // grows by a whole number of bytes per sample.
        const std::int64_t growth = static_cast<std::int64_t>(b.bytes) - static_cast<std::int64_t>(a.bytes);
        if (growth % step != 0) {
            why = "allocation " + std::to_string(i) + " is not affine in the batch (" + std::to_string(a.bytes) +
                  " bytes at batch " + std::to_string(small.batchSize) + ", " + std::to_string(b.bytes) + " at batch " +
                  std::to_string(large.batchSize) + ")";
            return std::nullopt;
        }
        trace.mSlopes[i] = growth / step;
        trace.mIntercepts[i] = static_cast<std::int64_t>(a.bytes) - trace.mSlopes[i] * small.batchSize;
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
            trace.events[i].bytes =
                clampedBytes(static_cast<long double>(mIntercepts[i]) +
                             static_cast<long double>(mSlopes[i]) * static_cast<long double>(batchSize));
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
        const auto bytes = [&](std::size_t k) { return static_cast<std::int64_t>(traces[k].events[i].bytes); };
        trace.mFirstBytes[i] = bytes(0);
        trace.mFirstDifferences[i] = bytes(1) - bytes(0);
        trace.mSecondDifferences[i] = bytes(2) - 2 * bytes(1) + bytes(0);
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
            trace.events[i].bytes = clampedBytes(static_cast<long double>(mFirstBytes[i]) +
                                                 t * static_cast<long double>(mFirstDifferences[i]) +
                                                 t * (t - 1) / 2 * static_cast<long double>(mSecondDifferences[i]));
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
