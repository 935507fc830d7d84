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

ConvolutionWorkspaces cudnnConvolutionWorkspaces(const ConvolutionCall &call)
{
    constexpr std::int64_t kFewChannels = 8;
    // Partial sums of the filter's gradient: 14 filters for the small ones measured
    // (64→64 3×3: 1.97 MiB), at most 8 MiB for large ones (512→512 3×3: 8.25).
    constexpr std::uint64_t kPartialFilters = 14;
    constexpr std::uint64_t kMaxPartialSums = std::uint64_t{8} << 20;
    const bool depthwise = call.groups > 1 && call.groups == call.inputChannels;
    const bool unitStride = allOnes(call.stride);
    if (depthwise || (unitStride && allOnes(call.kernel)) || (unitStride && call.inputChannels < kFewChannels))
        return {};
    const std::uint64_t copies = call.inputBytes + call.outputBytes + call.filterBytes;
    const std::uint64_t partialSums = std::min(kPartialFilters * call.filterBytes, kMaxPartialSums);
    return {copies, copies, copies + partialSums};
}

} // namespace gpumem::estimate
