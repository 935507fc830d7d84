// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/MemoryUnits.h"

#include <cmath>
#include <cstdio>

namespace gpumem::estimate {

std::string mibText(double mib)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", mib);
    return text;
}

double roundedMib(double mib)
{
    return std::round(mib * 1000.0) / 1000.0;
}

} // namespace gpumem::estimate
