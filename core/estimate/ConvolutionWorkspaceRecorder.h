// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/GpuBlockBytes.h"
#include "io/NonCopyable.h"
#include "probe/TrackingAllocator.h"

#include <cstdint>

namespace gpumem::estimate {

// While it lives, the convolutions that the calling thread runs allocate their transient
// memory as cuDNN does on a GPU. What the CPU kernel allocates and frees within a call
// (oneDNN's blocks in float32, the im2col columns of LibTorch's slow convolutions in
// float64 and transposed ones) gets 0 bytes in gpuBytes, since cuDNN computes the same
// convolution without them; and every call adds to allocator's trace, after the call's own
// outputs, the workspaces that cuDNN would allocate and free within it
// (cudnnConvolutionWorkspaces): one in forward, in backward one for the input's gradient
// and then a larger one for the filter's, each where autograd asks for that gradient;
// gpuAlgorithms receives the filter gradients' blocks that are the lesser of two
// algorithms' workspaces, and gpuWorkspaces every workspace's block.
// The calls are seen through LibTorch's operator observers (RecordFunction), outermost
// call only.
class ConvolutionWorkspaceRecorder : io::NonCopyable
{
  public:
    ConvolutionWorkspaceRecorder(const probe::TrackingAllocator &allocator, GpuBlockBytes &gpuBytes,
                                 GpuBlockAlgorithms &gpuAlgorithms, GpuWorkspaceBlocks &gpuWorkspaces);
    ~ConvolutionWorkspaceRecorder();

  private:
    std::uint64_t mHandle = 0;
};

} // namespace gpumem::estimate
