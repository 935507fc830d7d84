// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/OperationControl.h"

#include <stdexcept>

namespace gpumem::estimate {

// Thrown out of an estimate whose runtime::OperationControl was cancelled. Not an
// io::InputError: a cancel says nothing about the model or its input.
class EstimateCancelled : public std::runtime_error
{
  public:
    EstimateCancelled();
};

// Throws EstimateCancelled when control (null: never) has been cancelled. The
// estimate calls it between traced batches, between the phases of each traced
// step and between replays, so a cancel takes effect within a step.
void stopIfCancelled(const runtime::OperationControl *control);

} // namespace gpumem::estimate
