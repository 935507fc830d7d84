// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/TrackingAllocator.h"

#include <cstdint>

namespace gpumem::estimate {

// While it lives, every convolution that the calling thread runs, forward and
// backward, adds to allocator's trace the workspace that cuDNN would allocate and free
// within the call (cudnnConvolutionWorkspaceBytes), after the call's own outputs:
// one transient block per call, which is what the caching allocator keeps reserved
// afterwards. The calls are seen through LibTorch's operator observers
// (RecordFunction), outermost call only, so a convolution that calls another counts once.
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
