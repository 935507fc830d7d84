// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/ConfigurationChecks.h"

#include "io/InputError.h"
#include "io/NumberText.h"

namespace gpumem::workflows {

void checkHoldOutFraction(double fraction)
{
    // Written as a negated range test so that NaN is refused too.
    if (!(fraction >= 0.0 && fraction < 1.0))
        throw io::InputError(io::parameter("test_fraction") + " takes a number in [0, 1), not " +
                             io::formattedNumber("%g", fraction));
}

} // namespace gpumem::workflows
