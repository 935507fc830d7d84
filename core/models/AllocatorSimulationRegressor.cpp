// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/AllocatorSimulationRegressor.h"

#include "estimate/ProbeJobSimulator.h"
#include "io/InputError.h"
#include "models/AnalyticHyperparameters.h"
#include "models/HyperparameterSpecs.h"
#include "probe/CachingAllocatorSimulator.h"
#include "probe/MlpTraceModel.h"

#include <cmath>
#include <map>
#include <mutex>

namespace gpumem::models {

namespace {

// Simulated peaks by configuration key and workspace size, shared by every
// instance: a comparison fits and predicts the same jobs fold after fold.
std::mutex gCacheMutex;
std::map<std::pair<std::string, std::uint64_t>, std::uint64_t> gCache; // guarded by gCacheMutex

std::uint64_t replay(const probe::AllocationTrace &trace, std::uint64_t workspaceBytes)
{
    probe::CachingAllocatorSimulator simulator;
    // The workspace is taken at the first matrix product and kept for the process.
    if (workspaceBytes > 0)
        simulator.allocate(workspaceBytes);
    simulator.replay(trace);
    return simulator.peakReservedBytes();
}

} // namespace

std::uint64_t AllocatorSimulationRegressor::simulatedReservedBytes(const JobRow &row, std::uint64_t workspaceBytes)
{
    if (!row.fromProbe)
        return replay(probe::MlpTraceModel::trace(row.layers, row.batchSize, row.optimizer, row.bytesPerElement),
                      workspaceBytes);
    const std::pair<std::string, std::uint64_t> key(row.job.key(), workspaceBytes);
    {
        std::lock_guard<std::mutex> lock(gCacheMutex);
        const auto found = gCache.find(key);
        if (found != gCache.end())
            return found->second;
    }
    // Running a job at its own batch would take on the CPU what it takes on the GPU
    // (tens of GiB for the GPU-size datasets): it is traced at two small batches and
    // extrapolated instead, as `gpumem probe --gpu` made those rows.
    const estimate::ProbeJobSimulator simulator(estimate::GpuProfile{}, "allocator_sim");
    const probe::JobMeasurement measurement = simulator.measure(row.job);
    if (measurement.status != probe::JobStatus::Ok || !measurement.simulatedReservedBytes)
        throw io::InputError("the job cannot be traced to record its allocations (" +
                             std::string(probe::jobStatusName(measurement.status)) + ": " + measurement.message + ")");
    // The workspace is the first block and is never freed, so it holds a segment of its
    // own. The replay above left it out, so blocks that could have shared the rest of
    // that segment are counted again: at most the 11.9 MiB that PyTorch's default
    // 8.125 MiB workspace leaves of its 20 MiB segment.
    const std::uint64_t reserved = *measurement.simulatedReservedBytes + replay({}, workspaceBytes);
    std::lock_guard<std::mutex> lock(gCacheMutex);
    gCache[key] = reserved;
    return reserved;
}

double AllocatorSimulationRegressor::estimateMebibytes(const JobRow &row) const
{
    const double workspace = hyperparameters().real("cublas_workspace_mib");
    return static_cast<double>(
               simulatedReservedBytes(row, static_cast<std::uint64_t>(std::llround(workspace * 1048576.0)))) /
           1048576.0;
}

Hyperparameters allocatorSimulationHyperparameters()
{
    return Hyperparameters(
        {assumedOptimizerSpec(),
         realSpec("cublas_workspace_mib", AllocatorSimulationRegressor::defaultWorkspaceMebibytes, 0.0, 1024.0, "MiB",
                  "The cuBLAS workspace the caching allocator holds (PyTorch's default 8.125; 32 on Hopper).")});
}

} // namespace gpumem::models
