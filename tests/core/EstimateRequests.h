// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The configurations, profiles and byte counts the estimate tests share.

#include "estimate/GpuProfile.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/ModelTracer.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpumem::tests {

// A TorchScript model at path traced on samples of shape, trained with optimizer.
inline estimate::EstimateConfiguration configurationFor(const std::string &path, std::vector<std::int64_t> shape,
                                                        const std::string &optimizer = "adam")
{
    estimate::EstimateConfiguration configuration;
    configuration.modelPath = path;
    configuration.inputShapes = {std::move(shape)};
    configuration.optimizer = optimizer;
    return configuration;
}

// A card of capacityMib with 300 MiB of context and 8 MiB of workspace, so that a
// test can give its tensors a known room.
inline estimate::GpuProfile testProfile(double capacityMib)
{
    return {"test", capacityMib, 300.0, 8.0, "test"};
}

// The bytes of one category.
inline std::uint64_t bytesOf(const estimate::CategoryBytes &bytes, estimate::Category category)
{
    return bytes[static_cast<std::size_t>(category)];
}

} // namespace gpumem::tests
