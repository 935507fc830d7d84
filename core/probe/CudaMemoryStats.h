// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace gpumem::probe {

// Peak figures of LibTorch's CUDA caching allocator on one device, in bytes.
struct CudaPeaks
{
    std::uint64_t allocated = 0; // bytes held by live tensors
    std::uint64_t reserved = 0;  // bytes the allocator holds from the driver (cached blocks included)
};

// Reads and resets the CUDA caching allocator's statistics. Compiled in only
// when the LibTorch package provides CUDA (GPUMEM_PROBE_WITH_CUDA in the
// generated ProbeConfig.h); otherwise available() is false and the other
// functions throw io::InputError. Call from one thread at a time.
class CudaMemoryStats
{
  public:
    // True when this build has CUDA support and LibTorch sees a device.
    static bool available();
    // Returns device's cached, unused blocks to the driver, so the next job starts from an empty cache.
    static void emptyCache(int device);
    // Starts new peaks on device at the current allocated and reserved bytes.
    static void resetPeaks(int device);
    // Waits for device's work to finish and returns the peaks since resetPeaks().
    static CudaPeaks peaks(int device);
    // Memory the process holds on device beyond what the allocator reserved
    // (the CUDA context, cuBLAS/cuDNN handles), in bytes: measured once per
    // process, after the first call initialises CUDA; cached afterwards.
    static std::uint64_t contextOverhead(int device);
};

} // namespace gpumem::probe
