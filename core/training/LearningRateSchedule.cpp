// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/LearningRateSchedule.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpumem::training {

namespace {

constexpr double pi = 3.14159265358979323846;

// Cosine interpolation from start (progress 0) to end (progress 1).
double cosineBetween(double start, double end, double progress)
{
    return end + (start - end) * 0.5 * (1.0 + std::cos(pi * std::clamp(progress, 0.0, 1.0)));
}

} // namespace

LearningRateSchedule::LearningRateSchedule(const std::string &kind, double peak, std::int64_t totalSteps,
                                           double warmupFraction)
    : mPeak(peak)
    , mTotalSteps(totalSteps)
    , mWarmupSteps(static_cast<std::int64_t>(std::llround(warmupFraction * static_cast<double>(totalSteps))))
{
    if (kind == "one_cycle")
        mKind = Kind::OneCycle;
    else if (kind == "cosine")
        mKind = Kind::Cosine;
    else if (kind == "plateau")
        mKind = Kind::Plateau;
    else if (kind == "constant")
        mKind = Kind::Constant;
    else
        throw std::invalid_argument("unknown learning-rate schedule '" + kind + "'");
    if (totalSteps < 1)
        throw std::invalid_argument("a learning-rate schedule needs at least one step");
}

double LearningRateSchedule::rate(std::int64_t step) const
{
    const auto warmup = static_cast<double>(std::max<std::int64_t>(mWarmupSteps, 1));
    const bool warming = step < mWarmupSteps;
    if (mKind == Kind::OneCycle) {
        const double initial = mPeak / 25.0;
        if (warming)
            return cosineBetween(initial, mPeak, static_cast<double>(step) / warmup);
        const auto falling = static_cast<double>(std::max<std::int64_t>(mTotalSteps - mWarmupSteps - 1, 1));
        return cosineBetween(mPeak, initial / 1e4, static_cast<double>(step - mWarmupSteps) / falling);
    }
    if (warming)
        return mPeak * static_cast<double>(step + 1) / warmup;
    if (mKind == Kind::Cosine) {
        const auto decaying = static_cast<double>(std::max<std::int64_t>(mTotalSteps - mWarmupSteps, 1));
        return cosineBetween(mPeak, 0.0, static_cast<double>(step - mWarmupSteps) / decaying);
    }
    return mPeak * mPlateauFactor;
}

void LearningRateSchedule::epochFinished(double validationLoss)
{
    if (mKind != Kind::Plateau)
        return;
    if (mBestLoss < 0.0 || validationLoss < mBestLoss) {
        mBestLoss = validationLoss;
        mEpochsWithoutImprovement = 0;
        return;
    }
    if (++mEpochsWithoutImprovement >= plateauPatience) {
        mPlateauFactor *= 0.5;
        mEpochsWithoutImprovement = 0;
    }
}

void LearningRateSchedule::restore(const Memory &memory)
{
    mPlateauFactor = memory.plateauFactor;
    mBestLoss = memory.bestLoss;
    mEpochsWithoutImprovement = memory.epochsWithoutImprovement;
}

} // namespace gpumem::training
