// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/AllocationEvent.h"
#include "probe/JobConfiguration.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::probe {

// How a probe run of a job ended.
enum class JobStatus
{
    Ok,
    OutOfMemory, // the device (or --memory-limit) could not hold the job
    Invalid,     // LibTorch refused the configuration (e.g. shapes that do not fit)
};

// Returns "ok", "out_of_memory" or "invalid".
std::string_view jobStatusName(JobStatus status);

// The breakdown of an llm job's estimate at its allocated peak, as columns: the live
// bytes of parameters, gradients, optimizer state, activations (and temporaries),
// parameters gathered by sharding and communication buffers, then the allocator's
// overhead (reserved less requested) and the NCCL communicators outside it; all MiB.
const std::vector<std::string> &languageModelBreakdownColumns();

// What the probe measured for one job; the peaks are meaningful only when status is Ok.
struct JobMeasurement
{
    JobStatus status = JobStatus::Ok;
    // CPU: the largest number of bytes held by live tensors during the
    // training steps. CUDA: the caching allocator's peak allocated bytes.
    std::uint64_t peakAllocatedBytes = 0;
    std::optional<std::uint64_t> peakReservedBytes; // CUDA: the caching allocator's peak reserved bytes
    std::optional<std::uint64_t> contextBytes;      // CUDA: the process's context overhead (measured once)
    std::string message;                            // why the job failed; empty when Ok
    // JobSimulator: what the CUDA caching allocator would reserve at the peak, and
    // that plus the profile's context and workspace (what nvidia-smi would show).
    std::optional<std::uint64_t> simulatedReservedBytes;
    std::optional<double> simulatedDeviceMib;
    // JobSimulator of an llm job: the MiB of each part of languageModelBreakdownColumns(),
    // in its order, and whether the device total fits the profile's card.
    std::vector<double> simulatedBreakdownMib;
    std::optional<bool> simulatedFits;
    AllocationTrace trace; // CPU with recordTrace: every allocation and release, in order
};

// How to measure.
struct MeasureOptions
{
    std::string device = "cpu";         // cpu or cuda (device 0)
    std::uint64_t memoryLimitBytes = 0; // CPU: fail allocations beyond this many live bytes (0: no limit)
    bool recordTrace = false;           // CPU: keep the allocation trace
};

// Whether device, cpu or cuda, measures on the CUDA card; throws io::InputError
// "unknown device 'x' (known: cpu, cuda)" for any other name.
bool measuresOnCuda(const std::string &device);

// Runs measure on a fresh measurement and returns it; when measure throws, the
// measurement says why instead, with no peaks (what was recorded before the failure,
// such as the allocation trace, stays): out_of_memory for a memory limit,
// std::bad_alloc or an error saying memory ran out (LibTorch's CPU allocator says
// "can't allocate memory", CUDA's "out of memory"), invalid for anything else, and
// the error's first line as the message. Every way of measuring a job ends here.
JobMeasurement measureReportingFailure(const std::function<void(JobMeasurement &)> &measure);

// Runs a job's training steps with LibTorch and measures its peak memory.
class JobMeasurer
{
  public:
    // Builds the job, then runs job.steps steps of: clear the gradients (set to
    // none, as PyTorch 2 does by default), forward and cross-entropy loss,
    // backward, optimizer step. Peaks count everything live during the steps
    // (network, optimizer state, batch) and leave out transient allocations
    // made while building. On the CPU, LibTorch runs on one thread during the
    // measurement so that the allocation sequence, and so the peak, is the same
    // on every run. Never throws for a job that fails: the status says why.
    // Calls are serialised (each replaces LibTorch's CPU allocator while it
    // runs); CPU tensors that other threads allocate meanwhile are counted too,
    // so measure while nothing else in the process uses LibTorch.
    static JobMeasurement measure(const JobConfiguration &job, const MeasureOptions &options);
};

} // namespace gpumem::probe
