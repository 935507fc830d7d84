// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"
#include "evaluation/WeightedProgress.h"
#include "runtime/ProgressObserver.h"

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace gpumem::evaluation {

// Every (model, fold) fit of a comparison, run in parallel: each fit builds its
// own model with its repetition's seed and writes only its own slots, so the
// number of workers cannot change any result. A model that throws is recorded
// as failed and its remaining folds skipped; std::bad_alloc cancels everything
// and is rethrown. Internal to runExperiment.
class FoldFits
{
  public:
    FoldFits(const data::Dataset &dataset, const ExperimentSettings &settings, const std::vector<Split> &splits,
             ExperimentObserver *observer, runtime::OperationControl *control);

    // Runs every fit, settings.parallelFits at a time, until done or cancelled.
    void run();

    bool cancelled() const;
    // Per model, in settings' order: its folds, predictions and bound as the fits left them.
    std::vector<ModelResult> &models() { return mModels; }
    // Why a model failed (one line), or empty.
    const std::string &failure(std::size_t model) const { return mFailureOf[model]; }
    // Whether the fit of model on fold finished (was scored).
    bool finished(std::size_t model, int fold) const { return mFinished[job(model, fold)] != 0; }
    // The partial dependence grids every explained fit uses; empty when the experiment does not explain.
    const std::vector<PartialDependenceGrid> &grids() const { return mGrids; }
    // The warnings of the fit of model on fold.
    const std::vector<std::string> &warnings(std::size_t model, int fold) const { return mWarnings[job(model, fold)]; }

  private:
    std::size_t job(std::size_t model, int fold) const;
    void runOrRecord(std::size_t job);
    void fit(std::size_t job);
    // Measures importance and partial dependence of the fitted regressor on fold into
    // foldResult; returns false when cancelled on the way.
    bool explain(const models::Regressor &regressor, int fold, FoldResult &foldResult);
    void reportProgress();

    const data::Dataset &mDataset;
    const ExperimentSettings &mSettings;
    const std::vector<Split> &mSplits;
    ExperimentObserver *mObserver;
    const int mFoldCount;
    const int mFoldsPerRepetition;
    std::vector<ModelResult> mModels;
    std::mutex mObserverMutex; // serialises observer calls and guards mFailureOf, mProgress and mThrottle
    WeightedProgress mProgress;
    runtime::ProgressThrottle mThrottle;
    std::vector<std::string> mFailureOf;
    std::vector<std::vector<std::string>> mWarnings; // per job
    std::vector<char> mFinished;                     // per job; each job writes only its own slot
    std::vector<PartialDependenceGrid> mGrids;       // set before the fits start, read-only during them
    std::vector<Eigen::Index> mAveragedRows;         // likewise: the rows every partial dependence averages over
    runtime::OperationControl mOwnControl;
    runtime::OperationControl &mControl;
};

} // namespace gpumem::evaluation
