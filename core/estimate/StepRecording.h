// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the step tracers share: the scope a trace runs in, the traced training
// steps, and the tagging of the raw allocations by phase and category. Included
// only by the tracers' .cpp files (it brings LibTorch).

#include "estimate/AttentionRecorder.h"
#include "estimate/EstimateCancelled.h"
#include "estimate/TaggedTrace.h"
#include "io/NonCopyable.h"
#include "probe/AllocationEvent.h"
#include "probe/TrackingAllocator.h"

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace gpumem::estimate {

// Runs LibTorch on the calling thread only, with the plain TorchScript
// interpreter and allocator installed, for one trace; restores all three
// however the trace ends. Traces are serialised process-wide by the scope.
class TracingScope : io::NonCopyable
{
  public:
    explicit TracingScope(probe::TrackingAllocator &allocator);
    ~TracingScope();

  private:
    std::unique_lock<std::mutex> mSerialised;
    probe::TrackingAllocator &mAllocator;
    int mThreads;
    bool mOptimize;
};

// Where each phase of the traced steps begins, as indices into the raw trace.
struct PhaseMark
{
    std::size_t eventIndex = 0;
    Phase phase = Phase::Forward;
};

// A block that exists before the traced steps begin.
struct SetupBlock
{
    std::uint64_t bytes = 0;
    Category category = Category::Parameters;
};

// Appends one block of category per distinct storage of tensors; seen holds the
// storages already appended, so shared weights count once.
void addStorageBlocks(const std::vector<torch::Tensor> &tensors, Category category,
                      std::unordered_set<const void *> &seen, std::vector<SetupBlock> &blocks);

// What the traced steps allocated, and where each phase began.
struct RecordedSteps
{
    probe::AllocationTrace raw;
    std::vector<PhaseMark> marks;
    GpuBlockBytes gpuBytes;           // blocks a GPU allocates at another size (the recorders)
    GpuBlockAlgorithms gpuAlgorithms; // workspaces that are the lesser of two algorithms
    GpuWorkspaceBlocks gpuWorkspaces; // the blocks that are cuDNN's workspaces
    bool runsMatrixProducts = false;  // MatrixProductRecorder saw one in a forward pass
};

// How attention runs on the GPU: fused (PyTorch 2's scaled_dot_product_attention, as
// nn.MultiheadAttention calls it) or as the CPU trace computes it.
enum class AttentionKernel
{
    Fused,
    Math,
};

// Runs steps training steps as PyTorch 2's loop does (gradients set to none,
// lossOfStep() for forward and loss, backward, a TracedOptimizer step of
// optimizer in its implementation over parameters, after clip_grad_norm_'s norms
// when clipGradients) and returns allocator's trace as the last step
// leaves it: the optimizer state and the last loss still live, with attention
// rewritten for attention's kernel. Checks control before each phase of each step
// and throws EstimateCancelled when it was cancelled.
RecordedSteps runTracedSteps(const probe::TrackingAllocator &allocator, std::vector<torch::Tensor> &parameters,
                             const std::string &optimizer, const std::string &implementation, int steps,
                             AttentionKernel attention, const std::function<torch::Tensor()> &lossOfStep,
                             const runtime::OperationControl *control = nullptr, bool clipGradients = false);

// The tagged trace of the recorded steps, after the setup blocks, each block at the
// size a GPU gives it (steps.gpuBytes; a block of 0 bytes is left out), cuDNN's
// workspaces (steps.gpuWorkspaces) in their own category.
TaggedTrace tagTrace(std::int64_t batchSize, const std::vector<SetupBlock> &setup, const RecordedSteps &steps);

} // namespace gpumem::estimate
