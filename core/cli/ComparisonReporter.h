// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"

#include <chrono>
#include <ostream>
#include <string>

namespace gpumem::cli {

// Shows a comparison's progress on stderr: a progress bar over all fits (with
// the running model, fold and epoch) redrawn in place on a terminal, or one line
// per finished fold otherwise, with the bound's cost when the comparison
// calibrates. The experiment serialises the calls.
class ComparisonReporter : public evaluation::ExperimentObserver
{
  public:
    ComparisonReporter(std::ostream &err, bool terminal);

    void fitStarted(const std::string &model, int fold, int folds) override;
    void epochFinished(const std::string &model, int fold, const training::EpochProgress &progress) override;
    void foldFinished(const std::string &model, const evaluation::FoldResult &fold) override;
    void progressChanged(double fraction) override;
    // Ends the progress bar's line.
    void finish();

  private:
    void redraw();

    std::ostream &mErr;
    bool mTerminal;
    int mFolds = 0;
    double mFraction = 0.0;
    std::string mActivity; // e.g. "random_forest fold 2/5 tree 40/100"
    std::chrono::steady_clock::time_point mStart;
    std::chrono::steady_clock::time_point mLastDraw;
    bool mBarShown = false;
};

} // namespace gpumem::cli
