// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/ProgressObserver.h"

#include <algorithm>

namespace gpumem::runtime {

ProgressThrottle::ProgressThrottle(ProgressObserver *observer, double step)
    : mObserver(observer)
    , mStep(step)
{
}

void ProgressThrottle::advance(double fraction)
{
    if (!mObserver)
        return;
    const double share = std::clamp(fraction, 0.0, 1.0);
    // The end is always worth a report, even when the last step was smaller than a visible one.
    const bool completes = share >= 1.0 && mReported < 1.0;
    // The tolerance keeps shares made of exact steps (k / 100) from missing a report to rounding.
    if (share - mReported >= mStep - 1e-12 || completes) {
        mReported = share;
        mObserver->progressChanged(share);
    }
}

} // namespace gpumem::runtime
