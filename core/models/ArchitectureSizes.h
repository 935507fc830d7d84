// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace gpumem::models {

// The data sizes that shape the network (see describeArchitecture). The defaults
// are a GPUMemNet-like MLP dataset: what `gpumem describe-model` and the
// workbench's model page show before any data is given.
struct ArchitectureSizes
{
    std::int64_t features = 40;
    std::int64_t layerTypes = 16;
    std::int64_t fieldsPerLayer = 2;
    std::int64_t typicalLayers = 17; // per row
};

} // namespace gpumem::models
