// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/ComparisonReporter.h"

#include "cli/TrainingReporter.h"

#include <fmt/format.h>

#include <cstdio>

namespace gpumem::cli {

ComparisonReporter::ComparisonReporter(std::ostream &err, bool terminal)
    : mErr(err)
    , mTerminal(terminal)
    , mStart(std::chrono::steady_clock::now())
    , mLastDraw(mStart - std::chrono::hours(1))
{
}

void ComparisonReporter::fitStarted(const std::string &model, int fold, int folds)
{
    mFolds = folds;
    mActivity = model + " fold " + std::to_string(fold + 1) + "/" + std::to_string(folds);
    redraw();
}

void ComparisonReporter::epochFinished(const std::string &model, int fold, const training::EpochProgress &progress)
{
    mActivity = model + " fold " + std::to_string(fold + 1) + "/" + std::to_string(mFolds) + " step " +
                std::to_string(progress.epoch) + "/" + std::to_string(progress.epochs);
    redraw();
}

void ComparisonReporter::foldFinished(const std::string &model, const evaluation::FoldResult &fold)
{
    if (mTerminal)
        return;
    // A calibrated fold also says what its bound costs, so a long run shows it early.
    const std::string bound =
        fold.bound ? fmt::format("  bound under {:.1f}% over {:.4g} MiB", 100.0 * fold.bound->bound.underPredictionRate,
                                 fold.bound->bound.meanOverAllocation)
                   : "";
    mErr << fmt::format("{} fold {}/{}: RMSE {:.4g}  R² {:.5f}{}  ({:.1f} s)\n", model, fold.fold + 1, mFolds,
                        fold.metrics.rmse, fold.metrics.r2, bound, fold.trainSeconds)
         << std::flush;
}

void ComparisonReporter::progressChanged(double fraction)
{
    mFraction = fraction;
    redraw();
}

void ComparisonReporter::redraw()
{
    if (!mTerminal)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - mLastDraw).count() < 0.1 && mFraction < 1.0)
        return;
    mLastDraw = now;
    const double elapsed = std::chrono::duration<double>(now - mStart).count();
    const std::string remaining =
        mFraction > 0.0 ? "ETA " + formatDuration(elapsed * (1.0 - mFraction) / mFraction) : "ETA …";
    mErr << fmt::format("\r[{}] {:3.0f}%  {:<44.44}  {}   ", progressBar(mFraction, 24), 100.0 * mFraction, mActivity,
                        remaining)
         << std::flush;
    mBarShown = true;
}

void ComparisonReporter::finish()
{
    if (mBarShown)
        mErr << '\n' << std::flush;
    mBarShown = false;
}

} // namespace gpumem::cli
