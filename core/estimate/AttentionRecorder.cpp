// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/AttentionRecorder.h"

#include "estimate/OperatorArguments.h"
#include "estimate/OperatorCalls.h"

#include <torch/torch.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <unordered_map>

namespace gpumem::estimate {

namespace {

// The fused kernels tile the queries by 32 and keep one float32 per padded query.
constexpr std::int64_t kQueryTile = 32;
constexpr std::uint64_t kLogSumExpElementBytes = 4;

bool isProduct(const char *name)
{
    return std::strcmp(name, "aten::bmm") == 0 || std::strcmp(name, "aten::baddbmm") == 0 ||
           std::strcmp(name, "aten::matmul") == 0;
}

bool isSoftmax(const char *name)
{
    return std::strcmp(name, "aten::softmax") == 0 || std::strcmp(name, "aten::_softmax") == 0;
}

bool isSoftmaxBackward(const char *name)
{
    return std::strcmp(name, "aten::_softmax_backward_data") == 0;
}

// Attention probabilities found in forward, by block: their shape, and whether they
// have been sized as the fused kernel's output yet.
struct Probabilities
{
    std::int64_t rows = 0; // everything before the last two dimensions
    std::int64_t queries = 0;
    bool sized = false;
};

// The calling thread's recorder and what it has seen. Observers see an operator's
// arguments when it begins, and LibTorch 1.x gives the TorchScript interpreter's calls
// no results when they return, so a call's results are the blocks allocated during it
// that are still live at its end (counted from its mark). Only the outermost call of a
// kind counts (softmax calls _softmax, matmul calls bmm).
struct ThreadState
{
    const probe::TrackingAllocator *allocator = nullptr;
    GpuBlockBytes *gpuBytes = nullptr;
    std::unordered_map<std::uint64_t, Probabilities> probabilities;
    std::optional<std::uint64_t> lastProduct; // the block of the last batched product's result
    OutermostCall product;
    bool productIsBatched = false;
    std::optional<std::uint64_t> productOfProbabilities; // the probabilities the open product multiplies
    OutermostCall softmax;
    std::optional<std::uint64_t> softmaxOfScores; // the scores the open softmax normalises
    Probabilities softmaxShape;
    std::size_t backwardMark = 0;
    bool backwardOfProbabilities = false; // the open softmax backward is attention's
};
thread_local ThreadState tState;

std::optional<std::uint64_t> blockOf(const c10::IValue &value)
{
    if (!value.isTensor())
        return std::nullopt;
    const at::Tensor tensor = value.toTensor();
    if (!tensor.defined() || !tensor.has_storage())
        return std::nullopt;
    return tState.allocator->blockAt(tensor.storage().data_ptr().get());
}

// The largest block that the call begun at mark allocated and still holds: its result.
std::optional<probe::AllocationEvent> resultSince(std::size_t mark)
{
    const probe::AllocationTrace live = tState.allocator->liveAllocationsSince(mark);
    const auto largest =
        std::max_element(live.begin(), live.end(), [](const auto &a, const auto &b) { return a.bytes < b.bytes; });
    if (largest == live.end())
        return std::nullopt;
    return *largest;
}

void setGpuBytes(const std::optional<std::uint64_t> &block, std::uint64_t bytes)
{
    if (block)
        (*tState.gpuBytes)[*block] = bytes;
}

void enterProduct(const at::RecordFunction &call)
{
    if (!tState.product.begin(*tState.allocator))
        return;
    tState.productOfProbabilities.reset();
    tState.productIsBatched = false;
    const auto arguments = operatorArguments(call);
    // baddbmm(bias, batch1, batch2): the operands follow the added term.
    const std::size_t first = std::strcmp(call.name(), "aten::baddbmm") == 0 ? 1 : 0;
    if (arguments.size() <= first || !arguments[first].isTensor())
        return;
    tState.productIsBatched = arguments[first].toTensor().dim() >= 3;
    const auto block = blockOf(arguments[first]);
    if (!block)
        return;
    const auto found = tState.probabilities.find(*block);
    if (found != tState.probabilities.end() && !found->second.sized)
        tState.productOfProbabilities = *block;
}

void leaveProduct()
{
    if (!tState.product.end())
        return;
    const auto result = resultSince(tState.product.mark());
    tState.lastProduct.reset();
    if (result && tState.productIsBatched)
        tState.lastProduct = result->block;
    if (!tState.productOfProbabilities || !result)
        return;
    // P·V: what the fused kernel keeps in P's place is this product (its output) and
    // the log-sum-exp of P's rows.
    Probabilities &probabilities = tState.probabilities[*tState.productOfProbabilities];
    probabilities.sized = true;
    setGpuBytes(tState.productOfProbabilities,
                result->bytes + fusedAttentionLogSumExpBytes(probabilities.rows, probabilities.queries));
    tState.productOfProbabilities.reset();
}

void enterSoftmax(const at::RecordFunction &call)
{
    if (!tState.softmax.begin(*tState.allocator))
        return;
    tState.softmaxOfScores.reset();
    const auto arguments = operatorArguments(call);
    if (arguments.size() < 2 || !arguments[0].isTensor() || !arguments[1].isInt() || !tState.lastProduct)
        return;
    const at::Tensor scores = arguments[0].toTensor();
    const std::int64_t dim = arguments[1].toInt();
    const bool lastDimension = dim == -1 || dim == scores.dim() - 1;
    if (scores.dim() < 3 || !lastDimension || !scores.is_floating_point() ||
        blockOf(arguments[0]) != tState.lastProduct)
        return;
    const std::int64_t queries = scores.size(-2);
    const std::int64_t keys = scores.size(-1);
    tState.softmaxShape = {queries * keys == 0 ? 0 : scores.numel() / (queries * keys), queries, false};
    tState.softmaxOfScores = tState.lastProduct;
}

void leaveSoftmax()
{
    if (!tState.softmax.end() || !tState.softmaxOfScores)
        return;
    if (const auto result = resultSince(tState.softmax.mark())) {
        tState.probabilities[result->block] = tState.softmaxShape;
        setGpuBytes(tState.softmaxOfScores, 0); // the scores never exist on the GPU
    }
    tState.softmaxOfScores.reset();
    tState.lastProduct.reset();
}

// _softmax_backward_data(grad_output, output, dim, input_dtype): for attention both the
// gradient of P and the one this call returns (of the scores) are L×S matrices that the
// fused backward kernel never makes.
void enterSoftmaxBackward(const at::RecordFunction &call)
{
    tState.backwardOfProbabilities = false;
    const auto arguments = operatorArguments(call);
    if (arguments.size() < 2)
        return;
    const auto output = blockOf(arguments[1]);
    const auto found = output ? tState.probabilities.find(*output) : tState.probabilities.end();
    if (found == tState.probabilities.end() || !found->second.sized)
        return;
    tState.backwardOfProbabilities = true;
    tState.backwardMark = tState.allocator->eventCount();
    setGpuBytes(blockOf(arguments[0]), 0);
}

void leaveSoftmaxBackward()
{
    if (!tState.backwardOfProbabilities)
        return;
    tState.backwardOfProbabilities = false;
    for (const probe::AllocationEvent &result : tState.allocator->liveAllocationsSince(tState.backwardMark))
        setGpuBytes(result.block, 0);
}

void enterCall(const at::RecordFunction &call)
{
    if (tState.allocator == nullptr)
        return;
    const char *name = call.name();
    if (isProduct(name))
        enterProduct(call);
    else if (isSoftmax(name))
        enterSoftmax(call);
    else if (isSoftmaxBackward(name))
        enterSoftmaxBackward(call);
}

void leaveCall(const at::RecordFunction &call)
{
    if (tState.allocator == nullptr)
        return;
    const char *name = call.name();
    if (isProduct(name))
        leaveProduct();
    else if (isSoftmax(name))
        leaveSoftmax();
    else if (isSoftmaxBackward(name))
        leaveSoftmaxBackward();
}

} // namespace

std::uint64_t fusedAttentionLogSumExpBytes(std::int64_t rows, std::int64_t queries)
{
    const std::int64_t padded = (queries + kQueryTile - 1) / kQueryTile * kQueryTile;
    return static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(padded) * kLogSumExpElementBytes;
}

AttentionRecorder::AttentionRecorder(const probe::TrackingAllocator &allocator, GpuBlockBytes &gpuBytes)
{
    if (tState.allocator != nullptr)
        throw std::logic_error("one AttentionRecorder per thread at a time");
    tState = {};
    tState.allocator = &allocator;
    tState.gpuBytes = &gpuBytes;
    mHandle = observeOperatorCalls<&enterCall, &leaveCall>(true);
}

AttentionRecorder::~AttentionRecorder()
{
    at::removeCallback(mHandle);
    tState = {};
}

} // namespace gpumem::estimate
