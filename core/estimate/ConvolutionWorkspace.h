// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace gpumem::estimate {

// One call of a convolution, forward or backward, as cuDNN sees it.
struct ConvolutionCall
{
    std::int64_t inputChannels = 0;
    std::int64_t groups = 1;
    std::vector<std::int64_t> kernel; // the spatial extents of the filter
    std::vector<std::int64_t> stride;
    std::uint64_t inputBytes = 0;  // the whole batch's input
    std::uint64_t outputBytes = 0; // the whole batch's output (in backward, the output's gradient)
};

// The workspace that cuDNN asks PyTorch's caching allocator for during one such call
// and that is freed when the call returns: a block the GPU allocates and the CPU
// kernels do not. Measured with cuDNN 9.19 on an H200 in float32, the default
// memory format and cudnn.benchmark off (datasets/h200_conv_workspaces.csv,
// docs/estimate.md): a dense convolution takes about its input plus its output, the
// input and output copied into the layout of the engine that runs it. Three kinds
// take none: depthwise convolutions (PyTorch's own kernel), 1x1 filters at stride 1
// (a matrix product over the pixels as they lie) and inputs of fewer than 8 channels
// at stride 1 (an image's colour channels).
std::uint64_t cudnnConvolutionWorkspaceBytes(const ConvolutionCall &call);

} // namespace gpumem::estimate
