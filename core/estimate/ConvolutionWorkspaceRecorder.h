// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/TrackingAllocator.h"

#include <cstdint>

namespace gpumem::estimate {

// While it lives, every convolution backward that the calling thread runs adds to
// allocator's trace the workspace that cuDNN would allocate and free within the call
// (cudnnConvolutionWorkspaceBytes), after the call's own outputs: one transient block
// per call, which is what the caching allocator keeps reserved afterwards. Forward calls
// take one of the same size on a GPU, but the replay of a CPU trace that holds them too
// falls below the GPU's reserved memory (see the .cpp). The calls are seen through
// LibTorch's operator observers (RecordFunction), outermost call only.
class ConvolutionWorkspaceRecorder
{
  public:
    explicit ConvolutionWorkspaceRecorder(const probe::TrackingAllocator &allocator);
    ~ConvolutionWorkspaceRecorder();
    ConvolutionWorkspaceRecorder(const ConvolutionWorkspaceRecorder &) = delete;
    ConvolutionWorkspaceRecorder &operator=(const ConvolutionWorkspaceRecorder &) = delete;

  private:
    std::uint64_t mHandle = 0;
};

} // namespace gpumem::estimate
