// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace gpumem::estimate {

// A GPU's memory as the estimate sees it, in MiB: the capacity from the
// vendor's data sheet, and the CUDA context and library workspace the process
// holds beside the tensors (defaults with their source; calibrate for a driver).
struct GpuProfile
{
    std::string name;
    double capacityMib = 0.0;
    double contextMib = 0.0;
    double workspaceMib = 0.0;
    std::string source;
    // The part of contextMib that cuBLAS takes beside its workspaces, in a process that
    // multiplies matrices (0 where not measured).
    double cublasContextMib = 0.0;
    // What one NCCL communicator takes outside PyTorch's allocator: its channels'
    // buffers (defaultNcclMib unless the file says "nccl_mib").
    double ncclMib = defaultNcclMib;
    // The communicators a process on this card holds (ShardingPlan::communicators()):
    // 0 for a job on one GPU. Set by the estimate, never read from a file.
    int communicators = 0;

    // 688 MiB: one communicator of more than two GPUs, each with an all-reduce run, on
    // 4 NVLink-connected A100s (NVIDIA/nccl issue 964: 544 MiB for two GPUs, 688 MiB for
    // more); the memory grows with NCCL's channels, so faster links take more.
    static constexpr double defaultNcclMib = 688.0;
};

// Reads a profile file as untrusted input: a JSON object of at most 64 KiB
// with "name", "capacity_mib", "context_mib", "workspace_mib" and "source", and
// optionally "cublas_context_mib" (at most context_mib) and "nccl_mib", each checked
// for type and range; throws io::InputError naming the file.
GpuProfile readGpuProfile(const std::string &path);
// Checks a profile's JSON text as readGpuProfile does; path names it in messages.
GpuProfile parseGpuProfile(const std::string &text, const std::string &path);

// Returns profile as the JSON text that readGpuProfile reads back (keys in
// the order above, cublas_context_mib only when not 0, nccl_mib only when not the
// default, invalid UTF-8 replaced),
// ending in a newline.
std::string gpuProfileJson(const GpuProfile &profile);

// Returns profile with the context the user measured (--context-mib), its cuBLAS
// part kept within it. Throws io::InputError naming context_mib unless it is a
// finite number of MiB in [0, largestMib].
GpuProfile withContextMib(GpuProfile profile, double contextMib);

// Finds a profile by name (case-insensitive, "a100-80") among the installed
// ones, or reads nameOrPath as a file when it names one (a path with a "/" or
// ending in .json). Throws io::InputError listing the known names.
GpuProfile findGpuProfile(const std::string &nameOrPath);

// Returns the file findGpuProfile(nameOrPath) reads: nameOrPath itself when it
// names a file, the installed profile of that name otherwise, or "" when there
// is none. An output plan lists it as an input, so no output replaces it.
std::string gpuProfileFile(const std::string &nameOrPath);

// The names of the installed profiles, sorted.
std::vector<std::string> gpuProfileNames();

} // namespace gpumem::estimate
