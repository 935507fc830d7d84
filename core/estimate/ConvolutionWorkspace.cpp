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

std::uint64_t cudnnConvolutionWorkspaceBytes(const ConvolutionCall &call)
{
    constexpr std::int64_t kFewChannels = 8;
    const bool depthwise = call.groups > 1 && call.groups == call.inputChannels;
    const bool unitStride = allOnes(call.stride);
    if (depthwise || (unitStride && allOnes(call.kernel)) || (unitStride && call.inputChannels < kFewChannels))
        return 0;
    return call.inputBytes + call.outputBytes;
}

} // namespace gpumem::estimate
