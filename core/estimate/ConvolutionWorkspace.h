// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/TaggedTrace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace gpumem::estimate {

// One convolution as cuDNN sees it, forward or backward.
struct ConvolutionCall
{
    std::int64_t inputChannels = 0;
    std::int64_t groups = 1;
    std::vector<std::int64_t> kernel; // the spatial extents of the filter
    std::vector<std::int64_t> stride;
    std::uint64_t inputBytes = 0;  // the whole batch's input
    std::uint64_t outputBytes = 0; // the whole batch's output (in backward, the output's gradient)
    std::uint64_t filterBytes = 0; // the weight
    std::int64_t batchSize = 0;
};

// The kinds of convolution that the workspace rule below tells apart.
enum class ConvolutionKind
{
    Depthwise,           // one group per input channel: PyTorch's own kernel
    PointwiseUnitStride, // 1×1 filters at stride 1: a matrix product over the pixels
    PointwiseStrided,
    DenseUnitStride,
    DenseStrided,
};

ConvolutionKind convolutionKind(const ConvolutionCall &call);
// "depthwise", "1x1, stride 1", "1x1, strided", "dense, stride 1" or "dense, strided".
const char *convolutionKindName(ConvolutionKind kind);

// The workspaces that cuDNN asks PyTorch's caching allocator for during one
// convolution's passes, each freed when its pass returns: blocks the GPU allocates and the
// CPU kernels do not. Backward requests its two one after the other, the filter's gradient
// after the input's.
struct ConvolutionWorkspaces
{
    std::uint64_t forward = 0;
    std::uint64_t backwardData = 0;
    std::uint64_t backwardFilter = 0;
    // Where backwardFilter is the lesser of two algorithms' workspaces: both.
    std::optional<AlgorithmBytes> backwardFilterAlgorithms;
};

// The rule, measured with cuDNN 9.19 on an H200 in float32, the default memory format and
// cudnn.benchmark off (datasets/h200_conv_workspaces.csv, docs/estimate.md): a dense
// convolution copies its input, output and filter into the layout of the engine that runs
// it, in every pass, and its filter's gradient takes partial sums beside them, up to 14
// filters' bytes and at most about 8 MiB. So the backward pass's second request is a
// little larger than its first, and the caching allocator cannot serve it from the block
// the first one freed. Two kinds take none: depthwise convolutions (PyTorch's own kernel)
// and inputs of fewer than 8 channels at stride 1 (an image's colour channels). 1×1 filters
// at stride 1 are a matrix product over the pixels as they lie: forward and the input's
// gradient take none, and the filter's gradient the lesser of two algorithms' workspaces,
// one filter of partial products per sample or the copies of input and output with the
// partial sums (which one cuDNN picks changes with the batch and the map, so both are
// kept: backwardFilterAlgorithms).
ConvolutionWorkspaces cudnnConvolutionWorkspaces(const ConvolutionCall &call);

} // namespace gpumem::estimate
