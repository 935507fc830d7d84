// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"

namespace gpumem::runtime {

// While one lives, the memory the process frees stays in the C library's heap for its
// next allocations instead of going back to the kernel: no block is mapped on its own
// and the heap's top is not trimmed. Tracing builds a network, runs its steps and
// frees everything, over and over with the same sizes, and a training allocates and
// frees the same tensors at every step; a block that was unmapped has to be faulted
// in afresh page by page, which on a virtual machine costs more than the arithmetic
// (the probe's GPU-size CNN jobs spent a third of their time in the kernel, a
// `quick` training a quarter). When the last one goes, the defaults come back and
// the heap's free memory is returned. A process-wide setting (glibc's mallopt;
// nothing elsewhere), so scopes may nest and overlap across threads.
class HeapRetention : io::NonCopyable
{
  public:
    HeapRetention();
    ~HeapRetention();
};

} // namespace gpumem::runtime
