// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"

namespace gpumem::training {

// Fixes the calling thread's LibTorch intra-op (OpenMP) thread count for the
// guard's lifetime and restores the previous count afterwards. Unlike a bare
// at::set_num_threads(), the count then survives other threads' later calls:
// LibTorch sets up a thread's count lazily, from the process-wide value, at the
// thread's first parallel operation, which silently replaced a count set before
// it whenever another thread had changed that value in between (and with it the
// order of floating-point reductions, so results depended on timing).
// threads <= 0 keeps the current count. Use on one thread; not copyable.
class KernelThreadsGuard : io::NonCopyable
{
  public:
    explicit KernelThreadsGuard(int threads);
    ~KernelThreadsGuard();

  private:
    int mPrevious;
    bool mChanged;
};

} // namespace gpumem::training
