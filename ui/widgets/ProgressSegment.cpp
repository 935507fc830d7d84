// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/ProgressSegment.h"

namespace gpumem::ui {

ProgressSegment::ProgressSegment(runtime::ProgressObserver *target, double from, double to)
    : mTarget(target)
    , mFrom(from)
    , mTo(to)
{
}

void ProgressSegment::progressChanged(double fraction)
{
    if (mTarget)
        mTarget->progressChanged(mFrom + fraction * (mTo - mFrom));
}

} // namespace gpumem::ui
