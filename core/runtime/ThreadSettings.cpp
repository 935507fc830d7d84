// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/ThreadSettings.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <thread>

// OpenBLAS exports this; declared weak so that builds against another BLAS still link.
extern "C" void openblas_set_num_threads(int threads) __attribute__((weak));

namespace gpumem::runtime {

void setComputeThreads(int threads)
{
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    at::set_num_threads(threads);
    // OpenBLAS has one pool for the whole process. Sized per fit, one fit finishing
    // would resize it under another one running beside it (a comparison's parallel
    // fits), changing the order of its sums; the workbench's matrices are small
    // enough that a single-threaded BLAS under LibTorch's own threads or the
    // training workers loses nothing, so it stays at one thread.
    if (openblas_set_num_threads)
        openblas_set_num_threads(1);
}

int computeThreads()
{
    return at::get_num_threads();
}

} // namespace gpumem::runtime
