// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/StepTracer.h"
#include "probe/JobConfiguration.h"

#include <memory>

namespace gpumem::probe {
struct TrainingJob;
}

namespace gpumem::estimate {

// Traces a probe job's training steps on the CPU at any batch size: the job's
// network is built as `gpumem probe` builds it, with its synthetic batch, and
// trained with PyTorch 2's foreach-style optimizer step (as the estimate of a
// TorchScript model is), so that MemoryEstimator can extrapolate a job to
// batch sizes that would not fit the CPU. The network is built once and every
// trace steps it afresh (no gradients, a new optimizer and batch), since memory does
// not depend on the parameters' values. Not thread-safe, like every tracer.
class ProbeJobTracer final : public StepTracer
{
  public:
    // Builds job at batch 1 for its summary; throws io::InputError when LibTorch
    // refuses the configuration. memoryLimitBytes (0: none) bounds the live bytes
    // of a trace: beyond it, trace() throws probe::MemoryLimitExceeded.
    explicit ProbeJobTracer(probe::JobConfiguration job, std::uint64_t memoryLimitBytes = 0);
    ~ProbeJobTracer() override;

    const ModelSummary &summary() const override { return mSummary; }
    // job.steps steps at batchSize; the trace starts with the network's
    // parameters and buffers, then the batch.
    TaggedTrace trace(std::int64_t batchSize) const override;

    // The same trace of the job at another input size: shaped is the job with
    // another resolution or sequence length, equal to it in every other column.
    TaggedTrace trace(const probe::JobConfiguration &shaped, std::int64_t batchSize) const;

  private:
    probe::JobConfiguration mJob;
    std::uint64_t mMemoryLimitBytes;
    ModelSummary mSummary;
    std::unique_ptr<probe::TrainingJob> mBuilt; // the network every trace steps, with the last trace's batch
};

} // namespace gpumem::estimate
