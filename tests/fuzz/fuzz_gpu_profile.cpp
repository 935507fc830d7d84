// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes to the GPU-profile reader (estimate --gpu FILE), then
// writes what it accepts and reads that back: the writer's text must parse to the
// same profile. Only io::InputError may come out.
#include "estimate/GpuProfile.h"
#include "io/InputError.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace gpumem::estimate;
    const std::string text(reinterpret_cast<const char *>(data), size);
    GpuProfile profile;
    try {
        profile = parseGpuProfile(text, "profile.json");
    } catch (const gpumem::io::InputError &) {
        return 0;
    }
    // What was accepted round-trips: a refusal or a different value here is a bug.
    const GpuProfile again = parseGpuProfile(gpuProfileJson(profile), "written.json");
    if (again.capacityMib != profile.capacityMib || again.contextMib != profile.contextMib ||
        again.workspaceMib != profile.workspaceMib)
        std::abort();
    return 0;
}
