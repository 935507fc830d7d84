// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/TaggedTrace.h"

#include <algorithm>

namespace gpumem::estimate {

std::string_view phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Setup: return "setup";
    case Phase::Forward: return "forward";
    case Phase::Backward: return "backward";
    case Phase::Optimizer: return "optimizer";
    }
    return "setup";
}

std::string_view categoryName(Category category)
{
    switch (category) {
    case Category::Parameters: return "parameters";
    case Category::Gradients: return "gradients";
    case Category::OptimizerState: return "optimizer_state";
    case Category::Activations: return "activations";
    case Category::CudnnWorkspaces: return "cudnn_workspaces";
    case Category::GatheredParameters: return "gathered_parameters";
    case Category::CommunicationBuffers: return "communication_buffers";
    }
    return "activations";
}

std::uint64_t peakRequestedBytes(const TaggedTrace &trace)
{
    std::uint64_t live = 0;
    std::uint64_t peak = 0;
    for (const TaggedEvent &event : trace.events) {
        live = event.isRelease() ? live - event.bytes : live + event.bytes;
        peak = std::max(peak, live);
    }
    return peak;
}

} // namespace gpumem::estimate
