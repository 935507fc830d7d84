// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"

#include <cstdint>

namespace gpumem::estimate {

// While it lives, notes whether the calling thread runs a matrix product that a GPU
// computes with cuBLAS (mm, addmm, bmm, matmul, linear and the like). A process that
// never does holds no cuBLAS handle, so neither its workspaces in the caching
// allocator nor the memory cuBLAS takes per handle beside it (docs/estimate.md). The
// products that CPU kernels of other operators make inside them (the column matrices
// of a convolution, the gates of a recurrent layer) do not count: on a GPU, cuDNN runs
// those operators whole.
class MatrixProductRecorder : io::NonCopyable
{
  public:
    MatrixProductRecorder();
    ~MatrixProductRecorder();

    // Whether a matrix product ran since construction.
    bool ranMatrixProduct() const;

  private:
    std::uint64_t mHandle = 0;
};

} // namespace gpumem::estimate
