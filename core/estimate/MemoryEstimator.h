// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/GpuProfile.h"
#include "estimate/StepTracer.h"
#include "estimate/TraceReplay.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpumem::estimate {

// The estimated GPU memory of one batch size, in bytes unless named MiB.
struct BatchEstimate
{
    std::int64_t batchSize = 0;
    std::uint64_t peakAllocatedBytes = 0; // the caching allocator's peak allocated bytes
    std::uint64_t peakReservedBytes = 0;  // … and its peak reserved bytes
    std::uint64_t peakRequestedBytes = 0; // the most bytes of live tensors (peakRequestedBytes())
    CategoryBytes bytesAtPeak{};          // live bytes per category at the allocated peak
    double workspaceMib = 0.0;
    double contextMib = 0.0;
    double ncclMib = 0.0;           // the profile's NCCL communicators, outside the allocator
    bool measuredDirectly = false;  // traced at this batch, not extrapolated
    bool runsMatrixProducts = true; // the trace's: whether cuBLAS's memory counts

    // Sets the workspace, context and NCCL memory to profile's for this model: a model
    // without matrix products holds no cuBLAS workspace, nor the context's cuBLAS part.
    void useProfile(const GpuProfile &profile);
    // peak reserved + workspace + context + NCCL: what nvidia-smi would show.
    double deviceTotalMib() const;
    // Whether deviceTotalMib() fits profile's capacity (with this estimate's context
    // and workspace; set them to profile's to ask about another card).
    bool fitsOn(const GpuProfile &profile) const;
    // Reserved bytes beyond the requested ones at the peak (cached, rounding).
    std::uint64_t allocatorOverheadBytes() const;
};

// What to estimate.
struct EstimateRequest
{
    std::vector<std::int64_t> batchSizes;
    bool maxBatch = false; // search the largest batch that fits the profile
    // With maxBatch: other profiles to search the largest batch for as well (the
    // workbench's table of GPUs). The replay does not depend on the profile, so this
    // costs a few more replays and no trace.
    std::vector<GpuProfile> maxBatchAlsoFor;
    std::optional<std::int64_t> timelineBatch; // keep the replay's timeline of this batch
    // The pairs of small batches traced to extrapolate from, tried in order:
    // batch 1 costs least, and a model that refuses it (batch norm on [1, C])
    // or allocates differently at it gets the next pair.
    std::vector<std::pair<std::int64_t, std::int64_t>> tracedPairs = defaultTracedPairs();

    // {1, 2}, then {2, 4}. Built out of line: GCC 12 at -O1 takes an inlined copy of
    // the pairs' initializer list for uninitialised (-Wmaybe-uninitialized).
    static std::vector<std::pair<std::int64_t, std::int64_t>> defaultTracedPairs();
};

// The estimates, the largest batch that fits, and what the user should know.
struct EstimateResult
{
    ModelSummary model;
    GpuProfile profile;
    std::vector<BatchEstimate> estimates;
    std::optional<std::int64_t> maxBatch;
    // One per EstimateRequest::maxBatchAlsoFor, in order: the profile's name and its
    // largest fitting batch (0: not even batch 1); empty when nothing was searched.
    std::vector<std::pair<std::string, std::int64_t>> maxBatchByProfile;
    bool extrapolated = false;               // the small traces aligned
    std::vector<std::int64_t> tracedBatches; // the batch sizes run on the CPU, in order
    std::vector<std::string> notes;
    std::vector<TimelinePoint> timeline;
};

// Estimates a TorchScript model's GPU training memory from traces on the CPU:
// two small batches are traced, and when their events align the trace is
// extrapolated to each batch asked for and replayed through the CUDA caching
// allocator model, so the cost does not grow with the batch; otherwise each
// batch is traced directly, and a note says so.
class MemoryEstimator
{
  public:
    // Throws io::InputError for a model, input or profile that does not work. Reports
    // the share done to observer, one step per trace, replayed batch and search;
    // throws EstimateCancelled when control is cancelled (checked after each of those
    // steps and before each replay of the largest-batch search).
    static EstimateResult estimate(const StepTracer &tracer, const GpuProfile &profile, const EstimateRequest &request,
                                   runtime::ProgressObserver *observer = nullptr,
                                   const runtime::OperationControl *control = nullptr);
    // The estimate of one traced (or extrapolated) trace.
    static BatchEstimate estimateOf(const TaggedTrace &trace, const GpuProfile &profile,
                                    std::vector<TimelinePoint> *timeline = nullptr);
};

} // namespace gpumem::estimate
