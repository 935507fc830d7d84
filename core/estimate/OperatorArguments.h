// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Included only by the operator observers' .cpp files (it brings ATen).

#include <ATen/record_function.h>

namespace gpumem::estimate {

// The arguments of an operator call that an observer sees begin, in the order of the
// operator's schema. LibTorch 1.x hands the observers of the TorchScript interpreter's
// calls the interpreter's whole stack, with the call's arguments at its end, and those of
// calls from C++ (autograd's backward, one operator inside another) the arguments alone.
c10::ArrayRef<const c10::IValue> operatorArguments(const at::RecordFunction &call);

} // namespace gpumem::estimate
