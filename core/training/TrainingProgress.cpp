// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/TrainingProgress.h"

#include "io/NamedValues.h"
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

namespace {

constexpr io::NamedValues<StopReason, 4> kStopReasons{{{"completed", StopReason::Completed},
                                                       {"early_stopped", StopReason::EarlyStopped},
                                                       {"cancelled", StopReason::Cancelled},
                                                       {"not_finite", StopReason::NotFinite}}};

} // namespace

std::string stopReasonName(StopReason reason)
{
    return std::string(io::nameOf(kStopReasons, reason));
}

StopReason parseStopReason(const std::string &name)
{
    return io::parseNamed(kStopReasons, name, "stop reason");
}

} // namespace gpumem::training
