// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/LibraryVersions.h"

#include "BuildConfig.h"

#include <Eigen/Core>
#include <torch/cuda.h>
#include <torch/version.h>

#ifdef GPUMEM_WITH_XGBOOST
#include <xgboost/c_api.h>
#endif

namespace gpumem::runtime {

namespace {

std::string compilerVersion()
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown";
#endif
}

LibraryVersions detectVersions()
{
    LibraryVersions versions;
    versions.project = GPUMEM_PROJECT_VERSION;
    versions.libtorch = TORCH_VERSION;
    versions.eigen = std::to_string(EIGEN_WORLD_VERSION) + '.' + std::to_string(EIGEN_MAJOR_VERSION) + '.' +
                     std::to_string(EIGEN_MINOR_VERSION);
#ifdef GPUMEM_WITH_XGBOOST
    int major = 0, minor = 0, patch = 0;
    XGBoostVersion(&major, &minor, &patch);
    versions.xgboost = std::to_string(major) + '.' + std::to_string(minor) + '.' + std::to_string(patch);
#else
    versions.xgboost = "not built in";
#endif
    versions.compiler = compilerVersion();
    versions.cudaAvailable = torch::cuda::is_available();
    versions.cudaDeviceCount = versions.cudaAvailable ? static_cast<int>(torch::cuda::device_count()) : 0;
    return versions;
}

} // namespace

std::vector<std::pair<std::string, std::string>> LibraryVersions::entries() const
{
    return {{"gpumem", project},
            {"LibTorch", libtorch},
            {"Eigen", eigen},
            {"XGBoost", xgboost},
            {"compiler", compiler},
            {"CUDA", cudaAvailable ? std::to_string(cudaDeviceCount) + " device(s)" : "not available"}};
}

const LibraryVersions &libraryVersions()
{
    static const LibraryVersions versions = detectVersions();
    return versions;
}

void to_json(io::Json &json, const LibraryVersions &versions)
{
    json = io::Json::object();
    for (const auto &[name, version] : versions.entries())
        json[name] = version;
}

} // namespace gpumem::runtime
