// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/ProgressObserver.h"

namespace gpumem::ui {

// Passes one part of a longer run's progress on to target: a share done of the
// part becomes the same share of [from, to] of the whole, so that one progress
// bar follows several core operations run one after another. Called on the
// operation's thread, as target is.
class ProgressSegment : public runtime::ProgressObserver
{
  public:
    ProgressSegment(runtime::ProgressObserver *target, double from, double to);

    void progressChanged(double fraction) override;

  private:
    runtime::ProgressObserver *mTarget;
    double mFrom;
    double mTo;
};

} // namespace gpumem::ui
