// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/Json.h"

#include <string>
#include <utility>
#include <vector>

namespace gpumem::runtime {

// Versions of the project and of the libraries it was built against, plus
// the compute devices LibTorch sees; shown by `gpumem --version`, stored with
// saved models and printed in reports so results can be traced.
struct LibraryVersions
{
    std::string project;
    std::string libtorch;
    std::string eigen;
    std::string xgboost; // "not built in" without GPUMEM_WITH_XGBOOST
    std::string compiler;
    bool cudaAvailable = false;
    int cudaDeviceCount = 0;

    // Name/value pairs in display order.
    std::vector<std::pair<std::string, std::string>> entries() const;
};

// Returns the versions; cheap after the first call. Thread-safe.
const LibraryVersions &libraryVersions();

// The JSON form of the versions: {name: version, …} in the order of entries().
void to_json(io::Json &json, const LibraryVersions &versions);

} // namespace gpumem::runtime
