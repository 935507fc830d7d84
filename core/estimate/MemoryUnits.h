// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace gpumem::estimate {

// The units the estimate, its profiles and its calibration speak in.

inline constexpr double bytesPerMib = 1024.0 * 1024.0;

// The largest MiB value a GPU profile or a measurement may hold (1 TiB): far
// beyond any card, and small enough that sums of such values stay exact.
inline constexpr double largestMib = 1024.0 * 1024.0;

// Returns bytes in MiB.
inline double mibOf(std::uint64_t bytes)
{
    return static_cast<double>(bytes) / bytesPerMib;
}

// Returns mib with one decimal, as the estimate's tables print it ("1174.0").
std::string mibText(double mib);
// Returns bytes in MiB with one decimal.
inline std::string mibText(std::uint64_t bytes)
{
    return mibText(mibOf(bytes));
}

// Returns mib rounded to 0.001 MiB (1 KiB), far below what a measurement
// resolves, as the estimate's JSON and profile files hold it.
double roundedMib(double mib);

} // namespace gpumem::estimate
