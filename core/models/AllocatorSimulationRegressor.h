// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/AnalyticRegressor.h"

#include <cstdint>

namespace gpumem::models {

// "Measure on the CPU, predict the GPU": replays each job's allocations
// through a model of PyTorch's CUDA caching allocator
// (probe::CachingAllocatorSimulator) and predicts the peak reserved bytes plus
// the cuBLAS workspace and a constant for the CUDA context, calibrated on the
// training rows. Probe rows are rebuilt from their configuration and traced on
// the CPU with LibTorch at two small batches, extrapolated to their own
// (estimate::ProbeJobSimulator; cached per configuration in the process, so
// cross-validation pays once per job);
// GPUMemNet-style MLP rows are simulated from the layer list without LibTorch
// (probe::MlpTraceModel).
class AllocatorSimulationRegressor : public AnalyticRegressor
{
    GPUMEM_REGRESSOR_NAMED(AnalyticRegressor, "allocator_sim");

  public:
    // PyTorch's default cuBLAS workspace (CUBLAS_WORKSPACE_CONFIG ":4096:2:16:8"):
    // two 4 MiB chunks and eight 16 KiB chunks. Hopper GPUs use 32 MiB.
    static constexpr double defaultWorkspaceMebibytes = (4096.0 * 1024 * 2 + 16.0 * 1024 * 8) / 1048576.0;

    // The simulated peak reserved bytes of one job, cuBLAS workspace included.
    // Throws io::InputError when a probe job cannot be run.
    static std::uint64_t simulatedReservedBytes(const JobRow &row, std::uint64_t workspaceBytes);

  protected:
    double estimateMebibytes(const JobRow &row) const override;
    bool fitsScale() const override { return false; }
};

// The allocator_sim model's hyperparameters at their defaults.
Hyperparameters allocatorSimulationHyperparameters();

} // namespace gpumem::models
