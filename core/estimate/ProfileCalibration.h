// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/GpuProfile.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::estimate {

// What a measured peak counts. The CUDA context lives outside the caching
// allocator, and the cuBLAS workspace inside it, so nvidia-smi shows reserved +
// workspace + context while torch.cuda.max_memory_reserved() shows reserved +
// workspace only.
enum class MeasuredQuantity
{
    DeviceTotal, // "nvidia-smi": the process's whole device memory
    Reserved,    // "max_memory_reserved": the caching allocator's segments
};

// Returns "nvidia-smi" or "max_memory_reserved", as measurement files spell them.
std::string_view measuredQuantityName(MeasuredQuantity quantity);
// Parses those names; nothing for any other text.
std::optional<MeasuredQuantity> parseMeasuredQuantity(std::string_view text);

// One measured job beside its replay, in MiB: the simulated peak reserved
// bytes (no profile constants added) and what the user measured on the card.
struct CalibrationPoint
{
    double simulatedReservedMib = 0.0;
    double measuredMib = 0.0;
    MeasuredQuantity quantity = MeasuredQuantity::DeviceTotal;
    bool runsMatrixProducts = true; // without: no cuBLAS workspace, nor the context's cuBLAS part
};

// The constants of a GPU profile that calibration fits, in MiB.
struct ProfileConstants
{
    double contextMib = 0.0;
    double workspaceMib = 0.0;
    double cublasContextMib = 0.0; // the profile's, never fitted
};

// Returns what the estimate predicts for point's measurement under constants:
// simulated reserved + workspace, plus the context for an nvidia-smi reading (for a
// point without matrix products: no workspace, the context less its cuBLAS part).
double predictedMib(const CalibrationPoint &point, const ProfileConstants &constants);

// The constants fitted to measurements, which of them the measurements could
// determine (the others keep the base profile's values), and the root mean
// square of measured less predicted before and after, in MiB.
struct ProfileFit
{
    ProfileConstants constants;
    bool contextFitted = false;
    bool workspaceFitted = false;
    double rmsResidualBeforeMib = 0.0;
    double rmsResidualAfterMib = 0.0;
    std::vector<std::string> notes;
};

// Fits the context and workspace to points by least squares with both
// constants non-negative. A constant is fitted only where the points determine
// it: the context needs an nvidia-smi reading, and the workspace a
// max_memory_reserved one, since nvidia-smi readings alone see only the sum of
// the two (the workspace then keeps base's value, and one row fits the context
// alone). Reserved readings never see the context. Pure arithmetic; throws
// std::invalid_argument for no points.
ProfileFit fitProfileConstants(const std::vector<CalibrationPoint> &points, const ProfileConstants &base);

// Returns base with the fitted constants, named "NAME (calibrated)", and a
// source that names the calibration file (its file name), the date and what
// was fitted, followed by base's own source, cut to the 1000 bytes a profile
// file allows. Throws io::InputError when the constants leave nothing of the
// capacity (the measurements then belong to another card).
GpuProfile calibratedProfile(const GpuProfile &base, const ProfileFit &fit, const std::string &calibrationFile,
                             const std::string &date, std::size_t deviceTotalRows, std::size_t reservedRows);

} // namespace gpumem::estimate
