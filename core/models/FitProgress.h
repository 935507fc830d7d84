// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/Stopwatch.h"
#include "training/TrainingProgress.h"

#include <string>

namespace gpumem::models {

// The progress and cancel plumbing that the tabular models share.

// Blocks while control is paused; returns whether the fit should stop (cancelled).
// A null control never stops.
bool stopRequested(runtime::OperationControl *control);

// The result of a fit cancelled after done of total steps, e.g. "cancelled after 3 of 100 trees".
training::TrainingResult cancelledFit(int done, int total, const std::string &steps);

// The progress after step (1-based) of steps, timed by time (started with the
// fit), with the remaining time extrapolated; best marks the last step.
training::EpochProgress stepProgress(int step, int steps, double trainLoss, const runtime::Stopwatch &time);

// The result of a model that learns in one step (one tree, one linear solve):
// a single EpochProgress with trainLoss (NaN when not computed), also reported to observer.
training::TrainingResult singleStepFit(double trainLoss, training::TrainingObserver *observer);

} // namespace gpumem::models
