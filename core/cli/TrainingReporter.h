// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "training/TrainingProgress.h"

#include <chrono>
#include <ostream>
#include <string>

namespace gpumem::cli {

// Shows training progress on the command line: a progress bar redrawn in place
// when stderr is a terminal, one line per epoch when it is not, or JSON Lines on
// stdout with --json (every epoch, and batches at most twice a second).
class TrainingReporter : public training::TrainingObserver
{
  public:
    enum class Style
    {
        ProgressBar,
        EpochLines,
        JsonLines
    };

    TrainingReporter(Style style, std::ostream &out, std::ostream &err);

    void batchFinished(const training::BatchProgress &progress) override;
    void epochFinished(const training::EpochProgress &progress) override;
    // Ends the progress bar's line.
    void finish();

  private:
    bool due(double interval);

    Style mStyle;
    std::ostream &mOut;
    std::ostream &mErr;
    std::chrono::steady_clock::time_point mLastReport;
    double mLastValidationLoss = -1.0;
    bool mBarShown = false;
};

// Returns the inside of a text progress bar of width characters, e.g. "=====>    ".
std::string progressBar(double fraction, int width);

// Returns a duration as "1h02m", "3m05s" or "42s".
std::string formatDuration(double seconds);

} // namespace gpumem::cli
