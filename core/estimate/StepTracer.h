// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/TaggedTrace.h"
#include "io/InputError.h"

#include <cstdint>
#include <string>

namespace gpumem::estimate {

// Sizes of what a model holds before training, in bytes.
struct ModelSummary
{
    std::uint64_t parameterBytes = 0; // Σ numel × element size over the parameters
    std::uint64_t bufferBytes = 0;    // the same over the buffers (batch-norm statistics)
    std::int64_t parameterCount = 0;
    // The parameters that take gradients (LoRA's adapters alone); -1 when not counted
    // apart from parameterCount.
    std::int64_t trainableParameterCount = -1;
    // Where the steps run, for the reader: "the CPU", or "the meta device" for a model
    // built without storage.
    std::string tracedOn = "the CPU";
};

// Thrown by StepTracer::trace when a batch does not fit in this machine's memory:
// the model is not at fault, so the estimate can say why that batch was traced whole.
class TraceOutOfMemory : public io::InputError
{
  public:
    using io::InputError::InputError;
};

// Records the allocations of a model's training steps on the CPU, one batch
// size at a time: what MemoryEstimator extrapolates in the batch and replays
// through the CUDA caching-allocator model. A user's TorchScript file
// (ModelTracer) and a probe job (ProbeJobTracer) are traced alike.
class StepTracer
{
  public:
    virtual ~StepTracer() = default;

    virtual const ModelSummary &summary() const = 0;

    // Runs the training steps at batchSize and returns every allocation, tagged
    // by phase and category; the trace starts with what exists before the first
    // step (parameters, buffers, the input batch). Throws io::InputError, one
    // line, when the model or its input fails, and TraceOutOfMemory when the CPU
    // runs out of memory.
    virtual TaggedTrace trace(std::int64_t batchSize) const = 0;
};

} // namespace gpumem::estimate
