// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/MemoryUnits.h"

#include "io/NumberText.h"

#include <cmath>

namespace gpumem::estimate {

std::string mibText(double mib)
{
    return io::formattedNumber("%.1f", mib);
}

double roundedMib(double mib)
{
    return std::round(mib * 1000.0) / 1000.0;
}

} // namespace gpumem::estimate
