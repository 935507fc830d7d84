// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ConvolutionWorkspaceRecorder.h"

#include "estimate/ConvolutionWorkspace.h"
#include "estimate/OperatorArguments.h"
#include "estimate/OperatorCalls.h"

#include <torch/torch.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

namespace gpumem::estimate {

namespace {

// Where each operator keeps what the rule needs, by argument position; the output's
// size is computed from the shapes, since the arguments are only readable while the call
// begins. convolution(input, weight, bias, stride, padding, dilation, transposed,
// output_padding, groups), and _convolution with the same first nine;
// convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
// transposed, output_padding, groups, output_mask).
struct Signature
{
    const char *name;
    std::size_t input;
    std::size_t weight;
    std::size_t stride; // padding and dilation follow it
    std::size_t transposed;
    std::size_t groups;
};

constexpr Signature kForward = {"aten::convolution", 0, 1, 3, 6, 8};
constexpr Signature kBackward = {"aten::convolution_backward", 1, 2, 4, 7, 9};
constexpr std::size_t kBackwardOutputMask = 10;

// Where a convolution's call begins: conv2d and its kind call convolution, a traced
// TorchScript model calls _convolution, autograd calls convolution_backward; each runs
// the kernels (mkldnn_convolution, _slow_conv2d_forward, …) within it.
bool isConvolution(const char *name)
{
    return std::strcmp(name, "aten::convolution") == 0 || std::strcmp(name, "aten::_convolution") == 0 ||
           std::strcmp(name, kBackward.name) == 0;
}

// A workspace the GPU requests: its bytes and, where they are the lesser of two
// algorithms', both.
struct Workspace
{
    std::uint64_t bytes = 0;
    std::optional<AlgorithmBytes> algorithms;
};

// The recorder of the calling thread, its outermost convolution call and that call's
// workspaces.
struct ThreadState
{
    const probe::TrackingAllocator *allocator = nullptr;
    GpuBlockBytes *gpuBytes = nullptr;
    GpuBlockAlgorithms *gpuAlgorithms = nullptr;
    GpuWorkspaceBlocks *gpuWorkspaces = nullptr;
    OutermostCall convolution;
    std::vector<Workspace> workspaces; // in the order the GPU requests them
};
thread_local ThreadState tState;

// A list of integers as the call boxed it: LibTorch 2 declares the sizes of convolutions
// as symbolic integers, which box as a generic list of plain integers when concrete.
std::optional<std::vector<std::int64_t>> integersOf(const c10::IValue &value, std::size_t size)
{
    std::vector<std::int64_t> integers;
    if (value.isIntList()) {
        integers = value.toIntVector();
    } else if (value.isList()) {
        for (const c10::IValue &item : value.toListRef()) {
            if (!item.isInt())
                return std::nullopt;
            integers.push_back(item.toInt());
        }
    }
    if (integers.size() != size)
        return std::nullopt;
    return integers;
}

// The workspaces of a call, from its arguments; none for what the rule does not cover
// (transposed convolutions, padding given as a word).
std::optional<ConvolutionWorkspaces> workspacesOf(c10::ArrayRef<const c10::IValue> arguments,
                                                  const Signature &signature)
{
    if (arguments.size() <= signature.groups || !arguments[signature.input].isTensor() ||
        !arguments[signature.weight].isTensor() || !arguments[signature.groups].isInt())
        return std::nullopt;
    if (!arguments[signature.transposed].isBool() || arguments[signature.transposed].toBool())
        return std::nullopt;
    const at::Tensor input = arguments[signature.input].toTensor();
    const at::Tensor weight = arguments[signature.weight].toTensor();
    const std::size_t spatial = static_cast<std::size_t>(std::max<std::int64_t>(weight.dim() - 2, 0));
    if (spatial == 0 || input.dim() != weight.dim())
        return std::nullopt;
    const auto stride = integersOf(arguments[signature.stride], spatial);
    const auto padding = integersOf(arguments[signature.stride + 1], spatial);
    const auto dilation = integersOf(arguments[signature.stride + 2], spatial);
    if (!stride || !padding || !dilation)
        return std::nullopt;
    ConvolutionCall shape;
    shape.inputChannels = input.size(1);
    shape.groups = arguments[signature.groups].toInt();
    shape.kernel = weight.sizes().slice(2).vec();
    shape.stride = *stride;
    std::int64_t outputElements = input.size(0) * weight.size(0);
    for (std::size_t d = 0; d < spatial; ++d) {
        const std::int64_t extent = input.size(static_cast<std::int64_t>(d) + 2) + 2 * (*padding)[d] -
                                    (*dilation)[d] * (shape.kernel[d] - 1) - 1;
        if (extent < 0 || (*stride)[d] <= 0)
            return std::nullopt;
        outputElements *= extent / (*stride)[d] + 1;
    }
    const auto elementBytes = static_cast<std::uint64_t>(input.element_size());
    shape.inputBytes = static_cast<std::uint64_t>(input.numel()) * elementBytes;
    shape.outputBytes = static_cast<std::uint64_t>(outputElements) * elementBytes;
    shape.filterBytes = static_cast<std::uint64_t>(weight.numel()) * elementBytes;
    shape.batchSize = input.size(0);
    return cudnnConvolutionWorkspaces(shape);
}

// The workspaces a call requests, in order: the forward one, or in backward the input's
// gradient's then the filter's, each only where autograd asks for that gradient.
std::vector<Workspace> requestedWorkspaces(const at::RecordFunction &call)
{
    const auto arguments = operatorArguments(call);
    if (std::strcmp(call.name(), kBackward.name) != 0) {
        const auto workspaces = workspacesOf(arguments, kForward);
        return workspaces ? std::vector<Workspace>{{workspaces->forward, std::nullopt}} : std::vector<Workspace>{};
    }
    const auto workspaces = workspacesOf(arguments, kBackward);
    if (!workspaces || arguments.size() <= kBackwardOutputMask || !arguments[kBackwardOutputMask].isBoolList())
        return {};
    const auto outputMask = arguments[kBackwardOutputMask].toBoolList();
    std::vector<Workspace> requested;
    if (outputMask.size() > 0 && outputMask.get(0))
        requested.push_back({workspaces->backwardData, std::nullopt});
    if (outputMask.size() > 1 && outputMask.get(1))
        requested.push_back({workspaces->backwardFilter, workspaces->backwardFilterAlgorithms});
    return requested;
}

void enterCall(const at::RecordFunction &call)
{
    if (tState.allocator != nullptr && isConvolution(call.name()) && tState.convolution.begin(*tState.allocator))
        tState.workspaces = requestedWorkspaces(call);
}

// What the CPU kernel freed before returning is its scratch; the workspaces are
// allocated after the call's outputs, each freed before the next.
void leaveCall(const at::RecordFunction &call)
{
    if (tState.allocator == nullptr || !isConvolution(call.name()) || !tState.convolution.end())
        return;
    for (const std::uint64_t block : tState.allocator->releasedAllocationsSince(tState.convolution.mark()))
        (*tState.gpuBytes)[block] = 0;
    for (const Workspace &workspace : tState.workspaces) {
        const auto block = tState.allocator->recordTransientBlock(workspace.bytes);
        if (!block)
            continue;
        tState.gpuWorkspaces->insert(*block);
        if (workspace.algorithms)
            (*tState.gpuAlgorithms)[*block] = *workspace.algorithms;
    }
    tState.workspaces.clear();
}

} // namespace

ConvolutionWorkspaceRecorder::ConvolutionWorkspaceRecorder(const probe::TrackingAllocator &allocator,
                                                           GpuBlockBytes &gpuBytes, GpuBlockAlgorithms &gpuAlgorithms,
                                                           GpuWorkspaceBlocks &gpuWorkspaces)
{
    if (tState.allocator != nullptr)
        throw std::logic_error("one ConvolutionWorkspaceRecorder per thread at a time");
    tState = {&allocator, &gpuBytes, &gpuAlgorithms, &gpuWorkspaces, {}, {}};
    mHandle = observeOperatorCalls<&enterCall, &leaveCall>(true);
}

ConvolutionWorkspaceRecorder::~ConvolutionWorkspaceRecorder()
{
    at::removeCallback(mHandle);
    tState = {};
}

} // namespace gpumem::estimate
