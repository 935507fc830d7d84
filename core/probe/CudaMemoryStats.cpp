// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/CudaMemoryStats.h"

#include "io/InputError.h"

#include "ProbeConfig.h"

#include <torch/version.h>

#ifdef GPUMEM_PROBE_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <cuda_runtime_api.h>
#include <torch/cuda.h>

#include <mutex>
#endif

namespace gpumem::probe {

#ifdef GPUMEM_PROBE_WITH_CUDA

namespace {

namespace allocator = c10::cuda::CUDACachingAllocator;

// The statistics' device argument is an int in LibTorch 1.x and a c10::DeviceIndex in 2.x.
#if TORCH_VERSION_MAJOR >= 2
using DeviceArgument = c10::DeviceIndex;
#else
using DeviceArgument = int;
#endif

// Index 0 of every StatArray is the aggregate over the small and large pools,
// in 1.13 and 2.x alike (StatType::AGGREGATE).
constexpr std::size_t kAggregate = 0;

} // namespace

bool CudaMemoryStats::available()
{
    return torch::cuda::is_available();
}

void CudaMemoryStats::emptyCache(int device)
{
    c10::cuda::device_synchronize();
    (void)device; // emptyCache() covers every device
    allocator::emptyCache();
}

void CudaMemoryStats::resetPeaks(int device)
{
    c10::cuda::device_synchronize();
    allocator::resetPeakStats(static_cast<DeviceArgument>(device));
}

CudaPeaks CudaMemoryStats::peaks(int device)
{
    c10::cuda::device_synchronize();
    const auto stats = allocator::getDeviceStats(static_cast<DeviceArgument>(device));
    CudaPeaks peaks;
    peaks.allocated = static_cast<std::uint64_t>(stats.allocated_bytes[kAggregate].peak);
    peaks.reserved = static_cast<std::uint64_t>(stats.reserved_bytes[kAggregate].peak);
    return peaks;
}

std::uint64_t CudaMemoryStats::contextOverhead(int device)
{
    static std::once_flag measured;
    static std::uint64_t overhead = 0;
    std::call_once(measured, [device] {
        // A tiny tensor creates the context and the allocator's first segment;
        // after emptying the cache, what the device reports in use beyond the
        // allocator's reservation is the context (and any other process).
        const torch::Device cuda(torch::kCUDA, static_cast<c10::DeviceIndex>(device));
        torch::ones({1}, torch::TensorOptions().device(cuda)).sum().item<float>();
        c10::cuda::device_synchronize();
        allocator::emptyCache();
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
        if (cudaSetDevice(device) != cudaSuccess || cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess)
            return;
        const auto stats = allocator::getDeviceStats(static_cast<DeviceArgument>(device));
        const auto reserved = static_cast<std::uint64_t>(stats.reserved_bytes[kAggregate].current);
        const std::uint64_t used = totalBytes - freeBytes;
        overhead = used > reserved ? used - reserved : 0;
    });
    return overhead;
}

#else

namespace {

[[noreturn]] void noCuda()
{
    throw io::InputError("this build has no CUDA support (its LibTorch was built without CUDA); use " +
                         io::parameter("device") + " cpu");
}

} // namespace

bool CudaMemoryStats::available()
{
    return false;
}

void CudaMemoryStats::emptyCache(int)
{
    noCuda();
}

void CudaMemoryStats::resetPeaks(int)
{
    noCuda();
}

CudaPeaks CudaMemoryStats::peaks(int)
{
    noCuda();
}

std::uint64_t CudaMemoryStats::contextOverhead(int)
{
    noCuda();
}

#endif

} // namespace gpumem::probe
