// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "training/TrainingProgress.h"

#include <string>

namespace gpumem::training {

// Returns the StopReason whose stopReasonName() is name ("early_stopped"), as
// reports and run records store it; throws io::InputError naming the known names
// otherwise. Kept apart from TrainingProgress.h, which nearly every file includes.
StopReason parseStopReason(const std::string &name);

} // namespace gpumem::training
