// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace gpumem::training {

// The learning rate at each optimisation step:
// - one_cycle: cosine rise from peak/25 to peak over the warm-up, then cosine
//   fall to peak/25e4 (the 1cycle policy);
// - cosine: linear warm-up from 0 to peak, then cosine decay to 0;
// - plateau: linear warm-up, then peak, halved whenever the validation loss has
//   not improved for plateauPatience epochs;
// - constant: linear warm-up, then peak.
// Not thread-safe; owned by the training loop.
class LearningRateSchedule
{
  public:
    static constexpr int plateauPatience = 5;

    // Throws std::invalid_argument for an unknown kind or totalSteps < 1.
    LearningRateSchedule(const std::string &kind, double peak, std::int64_t totalSteps, double warmupFraction);

    // The rate for 0-based step.
    double rate(std::int64_t step) const;
    // Tells the schedule an epoch ended with validationLoss (only plateau uses it).
    void epochFinished(double validationLoss);

    // What the plateau schedule remembers between epochs, for a training continued later.
    struct Memory
    {
        double plateauFactor = 1.0;
        double bestLoss = -1.0; // negative: no epoch seen yet
        int epochsWithoutImprovement = 0;
    };
    Memory memory() const { return {mPlateauFactor, mBestLoss, mEpochsWithoutImprovement}; }
    void restore(const Memory &memory);

  private:
    enum class Kind
    {
        OneCycle,
        Cosine,
        Plateau,
        Constant
    };
    Kind mKind;
    double mPeak;
    std::int64_t mTotalSteps;
    std::int64_t mWarmupSteps;
    double mPlateauFactor = 1.0;
    double mBestLoss = -1.0;
    int mEpochsWithoutImprovement = 0;
};

} // namespace gpumem::training
