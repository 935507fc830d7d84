// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/HeapRetention.h"

#include <limits>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gpumem::runtime {

namespace {

std::mutex gScopesMutex;
int gScopes = 0; // guarded by gScopesMutex

#if defined(__GLIBC__)
// glibc's documented defaults (mallopt(3)): blocks of 128 KiB and more mapped on
// their own, at most 65,536 such mappings, the heap trimmed above 128 KiB free.
constexpr int kDefaultMmapMax = 65536;
constexpr int kDefaultTrimThreshold = 128 * 1024;
#endif

void retain(bool on)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_MAX, on ? 0 : kDefaultMmapMax);
    // The largest value mallopt takes: never trim while retaining.
    mallopt(M_TRIM_THRESHOLD, on ? std::numeric_limits<int>::max() : kDefaultTrimThreshold);
    if (!on)
        malloc_trim(0);
#else
    (void)on;
#endif
}

} // namespace

HeapRetention::HeapRetention()
{
    const std::lock_guard<std::mutex> lock(gScopesMutex);
    if (gScopes++ == 0)
        retain(true);
}

HeapRetention::~HeapRetention()
{
    const std::lock_guard<std::mutex> lock(gScopesMutex);
    if (--gScopes == 0)
        retain(false);
}

} // namespace gpumem::runtime
