// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/StepRecording.h"

#include "estimate/ConvolutionWorkspaceRecorder.h"
#include "estimate/DropoutMaskRecorder.h"
#include "estimate/MatrixProductRecorder.h"
#include "estimate/TracedOptimizer.h"

#include <torch/csrc/jit/python/update_graph_executor_opt.h>

#include <optional>
#include <unordered_map>

namespace gpumem::estimate {

namespace {

// Each trace replaces LibTorch's CPU allocator while it runs, so one runs at a time.
std::mutex &tracingMutex()
{
    static std::mutex mutex;
    return mutex;
}

} // namespace

TracingScope::TracingScope(probe::TrackingAllocator &allocator)
    : mSerialised(tracingMutex())
    , mAllocator(allocator)
    , mThreads(torch::get_num_threads())
    , mOptimize(torch::jit::getGraphExecutorOptimize())
{
    // The graph executor's optimisations (profiling runs, then fused and
    // differentiable graphs) would make the first steps allocate differently
    // from the later ones and from eager PyTorch; the plain interpreter runs
    // the ops one by one, as the Python training loop does.
    torch::jit::setGraphExecutorOptimize(false);
    torch::set_num_threads(1);
    // One thread runs the whole step, so another thread's tensors (a training in the
    // workbench beside the estimate) are not the model's.
    mAllocator.countOnlyCallingThread();
    mAllocator.install();
}

TracingScope::~TracingScope()
{
    mAllocator.uninstall();
    torch::set_num_threads(mThreads);
    torch::jit::setGraphExecutorOptimize(mOptimize);
}

void addStorageBlocks(const std::vector<torch::Tensor> &tensors, Category category,
                      std::unordered_set<const void *> &seen, std::vector<SetupBlock> &blocks)
{
    // By storage rather than data address: a meta tensor's storage has a size and no data.
    for (const torch::Tensor &tensor : tensors) {
        const void *storage = tensor.storage().unsafeGetStorageImpl();
        if (tensor.storage().nbytes() > 0 && seen.insert(storage).second)
            blocks.push_back({tensor.storage().nbytes(), category});
    }
}

RecordedSteps runTracedSteps(const probe::TrackingAllocator &allocator, std::vector<torch::Tensor> &parameters,
                             const std::string &optimizerName, const std::string &implementation, int steps,
                             AttentionKernel attention, const std::function<torch::Tensor()> &lossOfStep,
                             const runtime::OperationControl *control, bool clipGradients)
{
    RecordedSteps recorded;
    std::vector<PhaseMark> &marks = recorded.marks;
    const ConvolutionWorkspaceRecorder convolutions(allocator, recorded.gpuBytes, recorded.gpuAlgorithms,
                                                    recorded.gpuWorkspaces);
    const DropoutMaskRecorder dropoutMasks(allocator, recorded.gpuBytes);
    std::optional<AttentionRecorder> fusedAttention;
    if (attention == AttentionKernel::Fused)
        fusedAttention.emplace(allocator, recorded.gpuBytes);
    TracedOptimizer optimizer(optimizerName, implementation, parameters);
    torch::Tensor loss;
    for (int step = 0; step < steps; ++step) {
        stopIfCancelled(control);
        marks.push_back({allocator.eventCount(), Phase::Forward});
        for (auto &parameter : parameters)
            parameter.mutable_grad().reset();
        {
            // Forward only: backward multiplies matrices for some operators that cuDNN
            // runs whole on a GPU (a convolution's columns, a recurrent layer's gates).
            const MatrixProductRecorder products;
            loss = lossOfStep();
            recorded.runsMatrixProducts = recorded.runsMatrixProducts || products.ranMatrixProduct();
        }
        stopIfCancelled(control);
        marks.push_back({allocator.eventCount(), Phase::Backward});
        loss.backward();
        stopIfCancelled(control);
        marks.push_back({allocator.eventCount(), Phase::Optimizer});
        if (clipGradients)
            optimizer.clipGradients();
        optimizer.step();
    }
    // Taken before the optimizer and the loss go, as a training loop keeps them.
    recorded.raw = allocator.trace();
    return recorded;
}

TaggedTrace tagTrace(std::int64_t batchSize, const std::vector<SetupBlock> &setup, const RecordedSteps &steps)
{
    const probe::AllocationTrace &raw = steps.raw;
    const std::vector<PhaseMark> &marks = steps.marks;
    TaggedTrace result;
    result.batchSize = batchSize;
    result.runsMatrixProducts = steps.runsMatrixProducts;
    result.events.reserve(setup.size() + raw.size());
    for (const SetupBlock &block : setup)
        result.events.push_back({block.bytes, -1, Phase::Setup, block.category});
    // A block's category follows from the phase that allocated it and whether it
    // outlives that phase: what backward leaves are the gradients, what the
    // optimizer step leaves is its state; a convolution's workspace is cuDNN's;
    // everything else is an activation or a temporary (the input batch among them).
    std::unordered_map<std::uint64_t, std::size_t> eventOfBlock; // block -> index in result.events
    std::vector<std::size_t> openAllocations;                    // result indices allocated in the current phase
    std::size_t nextMark = 0;
    Phase phase = Phase::Setup;
    std::unordered_set<std::size_t> released; // result indices of allocations released so far
    const auto closeWithLiveness = [&] {
        const Category survivor = phase == Phase::Backward    ? Category::Gradients
                                  : phase == Phase::Optimizer ? Category::OptimizerState
                                                              : Category::Activations;
        for (const std::size_t index : openAllocations)
            if (released.count(index) == 0)
                result.events[index].category = survivor;
        openAllocations.clear();
    };
    for (std::size_t i = 0; i <= raw.size(); ++i) {
        while (nextMark < marks.size() && marks[nextMark].eventIndex == i) {
            closeWithLiveness();
            phase = marks[nextMark].phase;
            ++nextMark;
        }
        if (i == raw.size())
            break;
        const probe::AllocationEvent &event = raw[i];
        if (!event.release) {
            const auto resized = steps.gpuBytes.find(event.block);
            const std::uint64_t bytes = resized == steps.gpuBytes.end() ? event.bytes : resized->second;
            if (bytes == 0)
                continue; // never allocated on the GPU; its release is skipped below
            eventOfBlock[event.block] = result.events.size();
            openAllocations.push_back(result.events.size());
            const bool workspace = steps.gpuWorkspaces.count(event.block) != 0;
            result.events.push_back({bytes, -1, phase, workspace ? Category::CudnnWorkspaces : Category::Activations});
            if (const auto algorithms = steps.gpuAlgorithms.find(event.block); algorithms != steps.gpuAlgorithms.end())
                result.events.back().algorithms = algorithms->second;
            continue;
        }
        const auto found = eventOfBlock.find(event.block);
        if (found == eventOfBlock.end())
            continue; // a block allocated before tracing began
        released.insert(found->second);
        result.events.push_back({result.events[found->second].bytes, static_cast<std::int64_t>(found->second), phase,
                                 Category::Activations});
        eventOfBlock.erase(found);
    }
    closeWithLiveness();
    // Releases carry their allocation's category, now that every category is known.
    for (auto &event : result.events)
        if (event.isRelease())
            event.category = result.events[static_cast<std::size_t>(event.allocation)].category;
    return result;
}

} // namespace gpumem::estimate
