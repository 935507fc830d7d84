// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/GpuProfile.h"
#include "probe/JobSimulator.h"

#include <cstdint>

namespace gpumem::estimate {

// `gpumem probe --gpu`: each job traced by ProbeJobTracer at two small batches (a
// Transformer at short sequences and a CNN at small images, ShapeExtrapolatingTracer),
// extrapolated to its batch and replayed through the caching-allocator model for profile
// (MemoryEstimator, as `gpumem estimate` does for a user's model); a job whose
// small traces do not align is traced at its own batch. Not thread-safe, like the
// tracers.
class ProbeJobSimulator final : public probe::JobSimulator
{
  public:
    // memoryLimitBytes (0: none) bounds the live bytes of any one trace on the
    // CPU; a job beyond it is out_of_memory.
    ProbeJobSimulator(GpuProfile profile, std::string profileName, std::uint64_t memoryLimitBytes = 0);

    std::string profileName() const override { return mProfileName; }
    probe::JobMeasurement measure(const probe::JobConfiguration &job) const override;

  private:
    GpuProfile mProfile;
    std::string mProfileName;
    std::uint64_t mMemoryLimitBytes;
};

} // namespace gpumem::estimate
