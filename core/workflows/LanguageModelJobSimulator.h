// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/JobSimulator.h"

#include <string>

namespace gpumem::workflows {

// `gpumem probe --family llm --gpu PROFILE`: each job is the estimate `gpumem estimate
// --config` gives for its architecture and recipe on one GPU of profile (estimateModel:
// traced on the meta device, extrapolated in the batch, replayed through the
// caching-allocator model, sharded as the job's GPUs say). A recipe core refuses is
// an invalid row saying why. Not thread-safe, like the tracers.
class LanguageModelJobSimulator final : public probe::JobSimulator
{
  public:
    // profile: a GPU profile's name or file, as --gpu gives it.
    explicit LanguageModelJobSimulator(std::string profile);

    std::string profileName() const override { return mProfile; }
    probe::JobMeasurement measure(const probe::JobConfiguration &job) const override;

  private:
    std::string mProfile;
};

} // namespace gpumem::workflows
