// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/KernelThreads.h"

#include <ATen/Parallel.h>

namespace gpumem::training {

KernelThreadsGuard::KernelThreadsGuard(int threads)
    // Asking for the count runs LibTorch's lazy per-thread set-up now, so that
    // it cannot run later and overwrite the count set below.
    : mPrevious(at::get_num_threads())
    , mChanged(threads > 0 && threads != mPrevious)
{
    if (mChanged)
        at::set_num_threads(threads);
}

KernelThreadsGuard::~KernelThreadsGuard()
{
    if (mChanged)
        at::set_num_threads(mPrevious);
}

} // namespace gpumem::training
