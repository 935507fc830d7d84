// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/GpuProfile.h"

#include "EstimateConfig.h"

#include "estimate/MemoryUnits.h"

#include "io/InputError.h"
#include "io/Json.h"
#include "io/NumberText.h"
#include "io/RegularFile.h"
#include "io/ResourceDirectories.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

namespace gpumem::estimate {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMaxProfileBytes = 64u << 10;
// 1 TiB: far above any card, and small enough that MiB sums stay exact in a double.

std::vector<fs::path> profileDirectories()
{
    return io::resourceDirectories("GPUMEM_GPU_DIR", "gpus", GPUMEM_SOURCE_GPU_DIR);
}

std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string requiredText(const io::Json &object, const std::string &key, const std::string &path)
{
    const auto found = object.find(key);
    if (found == object.end() || !found->is_string())
        throw io::InputError(path, 0, 0, "a GPU profile needs \"" + key + "\" as a string");
    const std::string text = found->get<std::string>();
    if (text.empty() || text.size() > 1000)
        throw io::InputError(path, 0, 0, "\"" + key + "\" must hold 1 to 1000 characters");
    return text;
}

double requiredMib(const io::Json &object, const std::string &key, const std::string &path, bool positive)
{
    const auto found = object.find(key);
    if (found == object.end() || !found->is_number())
        throw io::InputError(path, 0, 0, "a GPU profile needs \"" + key + "\" as a number of MiB");
    const double value = found->get<double>();
    if (!std::isfinite(value) || value < 0.0 || (positive && value <= 0.0) || value > largestMib)
        throw io::InputError(path, 0, 0,
                             "\"" + key + "\" must be a number of MiB in " + (positive ? "(0, " : "[0, ") + "1048576]");
    return value;
}

} // namespace

GpuProfile readGpuProfile(const std::string &path)
{
    return parseGpuProfile(io::readRegularFile(path, kMaxProfileBytes), path);
}

GpuProfile parseGpuProfile(const std::string &text, const std::string &path)
{
    // The one strict reader of every JSON input: a repeated key or bytes after the
    // object are refused with their line and column, as in any other file.
    const io::Json object = io::parseJson(text, path);
    if (!object.is_object())
        throw io::InputError(path, 0, 0, "a GPU profile is a JSON object");
    static const std::set<std::string> known = {
        "name", "capacity_mib", "context_mib", "workspace_mib", "cublas_context_mib", "nccl_mib", "source"};
    for (const auto &member : object.items())
        if (known.count(member.key()) == 0)
            throw io::InputError(path, 0, 0,
                                 "unknown key " + io::quoteForMessage(member.key()) +
                                     " (known: name, capacity_mib, context_mib, workspace_mib, cublas_context_mib, "
                                     "nccl_mib, source)");
    GpuProfile profile;
    profile.name = requiredText(object, "name", path);
    profile.capacityMib = requiredMib(object, "capacity_mib", path, true);
    profile.contextMib = requiredMib(object, "context_mib", path, false);
    profile.workspaceMib = requiredMib(object, "workspace_mib", path, false);
    if (object.contains("cublas_context_mib"))
        profile.cublasContextMib = requiredMib(object, "cublas_context_mib", path, false);
    if (object.contains("nccl_mib"))
        profile.ncclMib = requiredMib(object, "nccl_mib", path, false);
    profile.source = requiredText(object, "source", path);
    if (profile.cublasContextMib > profile.contextMib)
        throw io::InputError(path, 0, 0, "cublas_context_mib is part of context_mib and cannot exceed it");
    if (profile.contextMib + profile.workspaceMib >= profile.capacityMib)
        throw io::InputError(path, 0, 0, "context_mib and workspace_mib leave nothing of capacity_mib");
    return profile;
}

std::string gpuProfileJson(const GpuProfile &profile)
{
    io::Json object = {{"name", profile.name},
                       {"capacity_mib", profile.capacityMib},
                       {"context_mib", profile.contextMib},
                       {"workspace_mib", profile.workspaceMib}};
    if (profile.cublasContextMib != 0.0)
        object["cublas_context_mib"] = profile.cublasContextMib;
    if (profile.ncclMib != GpuProfile::defaultNcclMib)
        object["nccl_mib"] = profile.ncclMib;
    object["source"] = profile.source;
    return object.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

GpuProfile withContextMib(GpuProfile profile, double contextMib)
{
    // A NaN would pass every comparison below it and print as a device total of "nan MiB".
    if (!std::isfinite(contextMib) || contextMib < 0.0 || contextMib > largestMib)
        throw io::InputError("context_mib must be a number of MiB in [0, 1048576], not " +
                             io::formattedNumber("%g", contextMib));
    profile.contextMib = contextMib;
    profile.cublasContextMib = std::min(profile.cublasContextMib, contextMib);
    return profile;
}

std::string gpuProfileFile(const std::string &nameOrPath)
{
    const bool isPath = nameOrPath.find('/') != std::string::npos ||
                        (nameOrPath.size() > 5 && nameOrPath.compare(nameOrPath.size() - 5, 5, ".json") == 0);
    if (isPath)
        return nameOrPath;
    const std::string wanted = lowered(nameOrPath);
    for (const auto &directory : profileDirectories()) {
        std::error_code error;
        for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
            if (it->path().extension() == ".json" && lowered(it->path().stem().string()) == wanted)
                return it->path().string();
    }
    return {};
}

GpuProfile findGpuProfile(const std::string &nameOrPath)
{
    if (const std::string file = gpuProfileFile(nameOrPath); !file.empty())
        return readGpuProfile(file);
    std::string names;
    for (const auto &name : gpuProfileNames())
        names += (names.empty() ? "" : ", ") + name;
    throw io::InputError(io::parameter("gpu") + ": no GPU profile named " + io::quoteForMessage(nameOrPath) +
                         (names.empty() ? std::string("; no profile folder found") : "; known: " + names) +
                         " (or give a profile's path)");
}

std::vector<std::string> gpuProfileNames()
{
    std::set<std::string> names;
    for (const auto &file : io::jsonFilesIn(profileDirectories()))
        names.insert(lowered(file.stem().string()));
    return {names.begin(), names.end()};
}

} // namespace gpumem::estimate
