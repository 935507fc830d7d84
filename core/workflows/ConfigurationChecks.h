// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Checks more than one workflow's configuration makes, each worded once: the
// train, sweep and compare configurations all hold rows out.

namespace gpumem::workflows {

// Throws io::InputError naming test_fraction unless fraction lies in [0, 1) (0:
// nothing held out); NaN is refused too.
void checkHoldOutFraction(double fraction);

} // namespace gpumem::workflows
