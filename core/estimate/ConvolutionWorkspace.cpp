// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ConvolutionWorkspace.h"

#include <algorithm>

namespace gpumem::estimate {

namespace {

bool allOnes(const std::vector<std::int64_t> &extents)
{
    return std::all_of(extents.begin(), extents.end(), [](std::int64_t extent) { return extent == 1; });
}

} // namespace

ConvolutionKind convolutionKind(const ConvolutionCall &call)
{
    if (call.groups > 1 && call.groups == call.inputChannels)
        return ConvolutionKind::Depthwise;
    const bool unitStride = allOnes(call.stride);
    if (allOnes(call.kernel))
        return unitStride ? ConvolutionKind::PointwiseUnitStride : ConvolutionKind::PointwiseStrided;
    return unitStride ? ConvolutionKind::DenseUnitStride : ConvolutionKind::DenseStrided;
}

const char *convolutionKindName(ConvolutionKind kind)
{
    switch (kind) {
    case ConvolutionKind::Depthwise: return "depthwise";
    case ConvolutionKind::PointwiseUnitStride: return "1x1, stride 1";
    case ConvolutionKind::PointwiseStrided: return "1x1, strided";
    case ConvolutionKind::DenseUnitStride: return "dense, stride 1";
    case ConvolutionKind::DenseStrided: return "dense, strided";
    }
    return "unknown";
}

ConvolutionWorkspaces cudnnConvolutionWorkspaces(const ConvolutionCall &call)
{
    constexpr std::int64_t kFewChannels = 8;
    // Partial sums of the filter's gradient: 14 filters for the small ones measured
    // (64→64 3×3: 1.97 MiB), at most 8 MiB for large ones (512→512 3×3: 8.25).
    constexpr std::uint64_t kPartialFilters = 14;
    constexpr std::uint64_t kMaxPartialSums = std::uint64_t{8} << 20;
    const ConvolutionKind kind = convolutionKind(call);
    const bool unitStride = kind == ConvolutionKind::PointwiseUnitStride || kind == ConvolutionKind::DenseUnitStride;
    if (kind == ConvolutionKind::Depthwise || (unitStride && call.inputChannels < kFewChannels))
        return {};
    const std::uint64_t partialSums = std::min(kPartialFilters * call.filterBytes, kMaxPartialSums);
    if (kind == ConvolutionKind::PointwiseUnitStride) {
        // Measured on the H200 (resnet50's 36 such calls at batch 8, 32 and 128): the
        // lesser of the two, exactly, on 30; the other six within 8 MiB.
        const AlgorithmBytes algorithms = {static_cast<std::uint64_t>(call.batchSize) * call.filterBytes,
                                           call.inputBytes + call.outputBytes + partialSums};
        return {0, 0, std::min(algorithms[0], algorithms[1]), algorithms};
    }
    const std::uint64_t copies = call.inputBytes + call.outputBytes + call.filterBytes;
    return {copies, copies, copies + partialSums, std::nullopt};
}

} // namespace gpumem::estimate
