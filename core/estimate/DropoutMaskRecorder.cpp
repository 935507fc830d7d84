// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/DropoutMaskRecorder.h"

#include "estimate/OperatorArguments.h"
#include "estimate/OperatorCalls.h"

#include <torch/torch.h>

#include <cstring>
#include <stdexcept>

namespace gpumem::estimate {

namespace {

// The calling thread's recorder, its outermost dropout call and that call's input's
// element size, or 0 where the GPU would not run the fused kernel.
struct ThreadState
{
    const probe::TrackingAllocator *allocator = nullptr;
    GpuBlockBytes *gpuBytes = nullptr;
    OutermostCall dropout;
    std::uint64_t elementBytes = 0;
};
thread_local ThreadState tState;

bool isDropout(const char *name)
{
    return std::strcmp(name, "aten::dropout") == 0;
}

// dropout(input, p, train): the fused kernel runs for training with 0 < p < 1
// (is_fused_kernel_acceptable in aten/src/ATen/native/Dropout.cpp).
std::uint64_t fusedElementBytes(const at::RecordFunction &call)
{
    const auto arguments = operatorArguments(call);
    if (arguments.size() < 3 || !arguments[0].isTensor() || !arguments[1].isDouble() || !arguments[2].isBool())
        return 0;
    const double p = arguments[1].toDouble();
    if (!arguments[2].toBool() || p <= 0.0 || p >= 1.0)
        return 0;
    return static_cast<std::uint64_t>(arguments[0].toTensor().element_size());
}

void enterCall(const at::RecordFunction &call)
{
    if (tState.allocator != nullptr && isDropout(call.name()) && tState.dropout.begin(*tState.allocator))
        tState.elementBytes = fusedElementBytes(call);
}

// The noise is allocated first (empty_like, then bernoulli_ in place), the output after it.
void leaveCall(const at::RecordFunction &call)
{
    if (tState.allocator == nullptr || !isDropout(call.name()) || !tState.dropout.end() || tState.elementBytes == 0)
        return;
    const probe::AllocationTrace live = tState.allocator->liveAllocationsSince(tState.dropout.mark());
    if (live.size() == 2)
        (*tState.gpuBytes)[live.front().block] = live.front().bytes / tState.elementBytes;
}

} // namespace

DropoutMaskRecorder::DropoutMaskRecorder(const probe::TrackingAllocator &allocator, GpuBlockBytes &gpuBytes)
{
    if (tState.allocator != nullptr)
        throw std::logic_error("one DropoutMaskRecorder per thread at a time");
    tState = {&allocator, &gpuBytes, {}, 0};
    mHandle = observeOperatorCalls<&enterCall, &leaveCall>(true);
}

DropoutMaskRecorder::~DropoutMaskRecorder()
{
    at::removeCallback(mHandle);
    tState = {};
}

} // namespace gpumem::estimate
