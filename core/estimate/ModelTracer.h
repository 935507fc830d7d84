// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/EstimateConfiguration.h"
#include "estimate/StepTracer.h"
#include "io/NonCopyable.h"
#include "runtime/OperationControl.h"

#include <cstdint>
#include <memory>
#include <string>

namespace gpumem::estimate {

// Loads a user's TorchScript model and records the allocations of real
// training steps on the CPU: forward, loss, backward and optimizer step, with
// LibTorch on one thread so that a batch size always gives the same trace.
// Loading a TorchScript file runs the model's own code, as torch.load does.
// Not thread-safe; traces are serialised process-wide, since each replaces
// LibTorch's CPU allocator while it runs.
class ModelTracer final : public StepTracer, private io::NonCopyable
{
  public:
    // Loads configuration.modelPath and converts it to the configuration's
    // dtype; throws io::InputError naming the file when it is no TorchScript
    // LibTorch can read (one line, saying what to do). A control (kept; it must
    // outlive the tracer) cancels a trace between the phases of its steps.
    explicit ModelTracer(EstimateConfiguration configuration, const runtime::OperationControl *control = nullptr);
    ~ModelTracer() override;

    const ModelSummary &summary() const override { return mSummary; }
    const EstimateConfiguration &configuration() const { return mConfiguration; }

    // Runs configuration.steps training steps at batchSize (they update the
    // parameters) and returns every allocation, tagged by phase and
    // category. The trace starts with the parameters and buffers. Throws
    // io::InputError with the model's own message, on one line, when the model
    // rejects the input or an operation fails, and when the CPU runs out of memory;
    // throws EstimateCancelled when the control was cancelled.
    TaggedTrace trace(std::int64_t batchSize) const override;

  private:
    struct Model;
    EstimateConfiguration mConfiguration;
    std::unique_ptr<Model> mModel;
    ModelSummary mSummary;
    const runtime::OperationControl *mControl;
};

// Returns the line of a LibTorch or TorchScript error that states the
// problem: the last "…Error: message" line of an interpreter traceback,
// without its prefix, or else the first line.
std::string essentialErrorLine(const std::string &text);

} // namespace gpumem::estimate
