// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <vector>

namespace gpumem::evaluation {

// The share of an experiment's work that is done, weighted by how long each fit
// is expected to take, so that one slow network does not sit at "5 of 6 done"
// for most of the run. A fit's expected time is, in order of knowledge: the mean
// measured time of its model's finished folds; the elapsed time of its running
// fit divided by the share of it done; the median of the other models' expected
// times; or, before anything is known, one unit for every fit. The reported share
// never goes back, though the estimates may. Not thread-safe: the experiment
// calls it under its observer lock.
class WeightedProgress
{
  public:
    WeightedProgress(std::size_t models, int folds);

    // A running fit has done `share` (0..1) of its work in elapsedSeconds.
    void fitAdvanced(std::size_t model, int fold, double share, double elapsedSeconds);
    // A fit finished (or failed, or was skipped) after seconds of work.
    void fitFinished(std::size_t model, int fold, double seconds);
    // Every remaining fold of model is skipped (the model failed): no work is left there.
    void modelAbandoned(std::size_t model);

    // The share done, in [0, 1].
    double share();

  private:
    struct Fit
    {
        double share = 0.0;
        double elapsedSeconds = 0.0;
        bool finished = false;
        double seconds = 0.0;
    };
    double expectedSeconds(std::size_t model) const;
    Fit &fit(std::size_t model, int fold);

    int mFolds;
    std::vector<Fit> mFits; // model-major: [model * folds + fold]
    double mReported = 0.0;
};

} // namespace gpumem::evaluation
