// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/TrainingProgress.h"

#include "io/InputError.h"
#include "training/StopReasonText.h"

namespace gpumem::training {

std::string stopReasonName(StopReason reason)
{
    switch (reason) {
    case StopReason::Completed: return "completed";
    case StopReason::EarlyStopped: return "early_stopped";
    case StopReason::Cancelled: return "cancelled";
    case StopReason::NotFinite: return "not_finite";
    }
    return "unknown";
}

StopReason parseStopReason(const std::string &name)
{
    const StopReason reasons[] = {StopReason::Completed, StopReason::EarlyStopped, StopReason::Cancelled,
                                  StopReason::NotFinite};
    std::string known;
    for (const StopReason reason : reasons) {
        if (stopReasonName(reason) == name)
            return reason;
        known += (known.empty() ? "" : ", ") + stopReasonName(reason);
    }
    throw io::InputError("unknown stop reason " + io::quoteForMessage(name) + " (known: " + known + ")");
}

} // namespace gpumem::training
