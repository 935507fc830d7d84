// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/JobConfiguration.h"
#include "probe/JobMeasurer.h"

#include <string>

namespace gpumem::probe {

// Measures a job without running it at its batch size: its training steps are
// traced at two small batches, extrapolated in the batch and replayed through
// the CUDA caching-allocator model for a GPU profile (estimate::ProbeJobSimulator
// is the one implementation; the probe only knows this interface, since
// estimate builds on probe). Thread-safe only where the implementation says so.
class JobSimulator
{
  public:
    virtual ~JobSimulator() = default;

    // The GPU profile the simulated numbers are for, as `--gpu` names it.
    virtual std::string profileName() const = 0;

    // Fills status, message and peakAllocatedBytes (the most bytes of live
    // tensors, as the CPU measurement counts them) plus simulated. Never throws
    // for a job that fails: the status says why.
    virtual JobMeasurement measure(const JobConfiguration &job) const = 0;
};

} // namespace gpumem::probe
