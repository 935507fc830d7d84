// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/GpuBlockBytes.h"
#include "io/NonCopyable.h"
#include "probe/TrackingAllocator.h"

#include <cstdint>

namespace gpumem::estimate {

// While it lives, the dropout that the calling thread computes keeps for backward what
// it keeps on a GPU. On the CPU, LibTorch draws a noise tensor of the input's type and
// multiplies by it, and autograd saves the noise; on a GPU, dropout runs the fused
// native_dropout kernel, which saves a mask of one byte per element instead. So the
// noise, the first block an outermost aten::dropout call (training, 0 < p < 1) allocates
// and still holds when it returns, gets one byte per element in gpuBytes. In-place and
// feature dropout run the same unfused code on both devices and keep their noise.
// The calls are seen through LibTorch's operator observers (RecordFunction).
class DropoutMaskRecorder : io::NonCopyable
{
  public:
    DropoutMaskRecorder(const probe::TrackingAllocator &allocator, GpuBlockBytes &gpuBytes);
    ~DropoutMaskRecorder();

  private:
    std::uint64_t mHandle = 0;
};

} // namespace gpumem::estimate
