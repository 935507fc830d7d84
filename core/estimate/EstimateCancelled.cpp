// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/EstimateCancelled.h"

namespace gpumem::estimate {

EstimateCancelled::EstimateCancelled()
    : std::runtime_error("the estimate was cancelled")
{
}

void stopIfCancelled(const runtime::OperationControl *control)
{
    if (control && control->isCancelled())
        throw EstimateCancelled();
}

} // namespace gpumem::estimate
