// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/WeightedProgress.h"

#include <algorithm>
#include <optional>

namespace gpumem::evaluation {

namespace {

// Below this share a running fit's elapsed time says little about its total
// (start-up costs dominate), so it gives no estimate yet.
constexpr double minimumShareForEstimate = 0.02;

} // namespace

WeightedProgress::WeightedProgress(std::size_t models, int folds)
    : mFolds(std::max(folds, 1))
    , mFits(models * static_cast<std::size_t>(std::max(folds, 1)))
{
}

WeightedProgress::Fit &WeightedProgress::fit(std::size_t model, int fold)
{
    return mFits[model * static_cast<std::size_t>(mFolds) + static_cast<std::size_t>(std::clamp(fold, 0, mFolds - 1))];
}

void WeightedProgress::fitAdvanced(std::size_t model, int fold, double share, double elapsedSeconds)
{
    if (model * static_cast<std::size_t>(mFolds) >= mFits.size())
        return;
    Fit &running = fit(model, fold);
    if (running.finished)
        return;
    running.share = std::clamp(share, 0.0, 1.0);
    running.elapsedSeconds = std::max(elapsedSeconds, 0.0);
}

void WeightedProgress::fitFinished(std::size_t model, int fold, double seconds)
{
    if (model * static_cast<std::size_t>(mFolds) >= mFits.size())
        return;
    Fit &done = fit(model, fold);
    done.finished = true;
    done.share = 1.0;
    done.seconds = std::max(seconds, 0.0);
}

void WeightedProgress::modelAbandoned(std::size_t model)
{
    for (int fold = 0; fold < mFolds && model * static_cast<std::size_t>(mFolds) < mFits.size(); ++fold) {
        Fit &skipped = fit(model, fold);
        if (!skipped.finished)
            fitFinished(model, fold, 0.0);
    }
}

double WeightedProgress::expectedSeconds(std::size_t model) const
{
    const auto begin = mFits.begin() + static_cast<std::ptrdiff_t>(model * static_cast<std::size_t>(mFolds));
    double measured = 0.0;
    int finished = 0;
    double extrapolated = 0.0;
    int running = 0;
    for (auto it = begin; it != begin + mFolds; ++it) {
        if (it->finished && it->seconds > 0.0) {
            measured += it->seconds;
            ++finished;
        } else if (!it->finished && it->share >= minimumShareForEstimate) {
            extrapolated += it->elapsedSeconds / it->share;
            ++running;
        }
    }
    if (finished > 0)
        return measured / finished;
    if (running > 0)
        return extrapolated / running;
    return -1.0; // unknown
}

double WeightedProgress::share()
{
    const std::size_t models = mFits.size() / static_cast<std::size_t>(mFolds);
    std::vector<double> expected(models);
    std::vector<double> known;
    for (std::size_t model = 0; model < models; ++model) {
        expected[model] = expectedSeconds(model);
        if (expected[model] > 0.0)
            known.push_back(expected[model]);
    }
    // The median rather than the mean: one slow network would otherwise make every unknown model look slow.
    std::optional<double> typical;
    if (!known.empty()) {
        std::nth_element(known.begin(), known.begin() + static_cast<std::ptrdiff_t>(known.size() / 2), known.end());
        typical = known[known.size() / 2];
    }

    double total = 0.0;
    double done = 0.0;
    for (std::size_t model = 0; model < models; ++model) {
        const double weight = expected[model] > 0.0 ? expected[model] : typical.value_or(1.0);
        for (int fold = 0; fold < mFolds; ++fold) {
            const Fit &each = mFits[model * static_cast<std::size_t>(mFolds) + static_cast<std::size_t>(fold)];
            total += weight;
            done += weight * each.share;
        }
    }
    const double now = total > 0.0 ? std::clamp(done / total, 0.0, 1.0) : 1.0;
    mReported = std::max(mReported, now);
    return mReported;
}

} // namespace gpumem::evaluation
