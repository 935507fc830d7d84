// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/JobConfiguration.h"

#include <cstdint>
#include <string>

namespace gpumem::probe {

// Draws random but realistic training configurations of one family, sized so
// that a CPU runs a few steps of each in well under a second. Configuration i
// depends only on (seed, family, device, steps, i), so a run can be resumed or
// extended and gives the same rows everywhere (data::SeededRandom, no standard
// distributions). Thread-safe: const and pure.
class JobSampler
{
  public:
    // device "cpu" draws float32 or float64; "cuda" float32, float16 or bfloat16.
    JobSampler(JobFamily family, std::string device, std::uint64_t seed, int steps = 3);

    // Returns configuration number index of the sequence.
    JobConfiguration sample(std::uint64_t index) const;

  private:
    JobFamily mFamily;
    std::string mDevice;
    std::uint64_t mSeed;
    int mSteps;
};

} // namespace gpumem::probe
