// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/TraceExtrapolation.h"

namespace gpumem::estimate {

std::optional<AffineTrace> AffineTrace::fit(const TaggedTrace &small, const TaggedTrace &large, std::string &why)
{
    const std::int64_t step = large.batchSize - small.batchSize;
    if (step <= 0) {
        why = "the second trace's batch must be larger than the first's";
        return std::nullopt;
    }
    if (small.events.size() != large.events.size()) {
        why = "batch " + std::to_string(small.batchSize) + " makes " + std::to_string(small.events.size()) +
              " allocation events, batch " + std::to_string(large.batchSize) + " makes " +
              std::to_string(large.events.size());
        return std::nullopt;
    }
    AffineTrace trace;
    trace.mEvents = small.events;
    trace.mIntercepts.resize(small.events.size());
    trace.mSlopes.resize(small.events.size());
    for (std::size_t i = 0; i < small.events.size(); ++i) {
        const TaggedEvent &a = small.events[i];
        const TaggedEvent &b = large.events[i];
        if (a.allocation != b.allocation || a.phase != b.phase || a.category != b.category) {
            why = "event " + std::to_string(i) + " differs between batch " + std::to_string(small.batchSize) +
                  " and batch " + std::to_string(large.batchSize) + " (" + std::string(phaseName(a.phase)) + " " +
                  std::string(categoryName(a.category)) + " against " + std::string(phaseName(b.phase)) + " " +
                  std::string(categoryName(b.category)) + ")";
            return std::nullopt;
        }
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
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        TaggedEvent &event = trace.events[i];
        if (event.isRelease())
            continue;
        const long double bytes = static_cast<long double>(mIntercepts[i]) +
                                  static_cast<long double>(mSlopes[i]) * static_cast<long double>(batchSize);
        event.bytes = bytes <= 0 ? 0 : static_cast<std::uint64_t>(bytes);
    }
    // A release gives back what its allocation took.
    for (auto &event : trace.events)
        if (event.isRelease())
            event.bytes = trace.events[static_cast<std::size_t>(event.allocation)].bytes;
    return trace;
}

bool AffineTrace::predicts(const TaggedTrace &traced, std::string &why) const
{
    const TaggedTrace predicted = at(traced.batchSize);
    const std::string batch = "batch " + std::to_string(traced.batchSize);
    if (predicted.events.size() != traced.events.size()) {
        why = batch + " makes " + std::to_string(traced.events.size()) + " allocation events, the fit " +
              std::to_string(predicted.events.size());
        return false;
    }
    for (std::size_t i = 0; i < traced.events.size(); ++i) {
        const TaggedEvent &expected = predicted.events[i];
        const TaggedEvent &found = traced.events[i];
        if (expected.allocation != found.allocation || expected.phase != found.phase ||
            expected.category != found.category) {
            why = "event " + std::to_string(i) + " at " + batch + " is not the fit's";
            return false;
        }
        if (!found.isRelease() && expected.bytes != found.bytes) {
            why = "allocation " + std::to_string(i) + " at " + batch + " is " + std::to_string(found.bytes) +
                  " bytes, the line through the smaller batches gives " + std::to_string(expected.bytes);
            return false;
        }
    }
    return true;
}

} // namespace gpumem::estimate
