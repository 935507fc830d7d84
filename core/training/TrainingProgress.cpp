// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/TrainingProgress.h"

#include "io/InputError.h"
#include "training/StopReasonText.h"

#include <algorithm>

namespace gpumem::training {

double fitShare(const BatchProgress &progress)
{
    const double total = static_cast<double>(progress.epochs) * static_cast<double>(progress.batches);
    const double done = static_cast<double>(progress.epoch - 1) * static_cast<double>(progress.batches) +
                        static_cast<double>(progress.batch);
    return total > 0.0 ? std::clamp(done / total, 0.0, 1.0) : 0.0;
}

double fitShare(const EpochProgress &progress)
{
    return progress.epochs > 0 ? std::clamp(static_cast<double>(progress.epoch) / progress.epochs, 0.0, 1.0) : 0.0;
}

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
