// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ProfileCalibration.h"

#include "estimate/MemoryUnits.h"

#include "io/InputError.h"
#include "io/Utf8.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace gpumem::estimate {

namespace {

// The two fitted constants, by index in the least-squares problem.
constexpr std::size_t kContext = 0;
constexpr std::size_t kWorkspace = 1;
// A profile file's limits (see readGpuProfile).
constexpr std::size_t kLongestText = 1000;
// Residuals above this share of the mean measurement are worth a note.
constexpr double kLargeResidualShare = 0.05;

// The coefficient of constant in point's prediction: the context counts only
// for nvidia-smi, the workspace for both readings.
double coefficient(const CalibrationPoint &point, std::size_t constant)
{
    if (constant == kContext)
        return point.quantity == MeasuredQuantity::DeviceTotal ? 1.0 : 0.0;
    return point.runsMatrixProducts ? 1.0 : 0.0;
}

// What point's prediction holds besides the fitted constants: the replay, less the
// context's cuBLAS part in a process that never loads cuBLAS.
double heldMib(const CalibrationPoint &point, const ProfileConstants &constants)
{
    const bool withoutCublas = point.quantity == MeasuredQuantity::DeviceTotal && !point.runsMatrixProducts;
    return point.simulatedReservedMib - (withoutCublas ? constants.cublasContextMib : 0.0);
}

double rmsResidual(const std::vector<CalibrationPoint> &points, const ProfileConstants &constants)
{
    double sum = 0.0;
    for (const auto &point : points) {
        const double residual = point.measuredMib - predictedMib(point, constants);
        sum += residual * residual;
    }
    return std::sqrt(sum / static_cast<double>(points.size()));
}

} // namespace

std::string_view measuredQuantityName(MeasuredQuantity quantity)
{
    return quantity == MeasuredQuantity::DeviceTotal ? "nvidia-smi" : "max_memory_reserved";
}

std::optional<MeasuredQuantity> parseMeasuredQuantity(std::string_view text)
{
    if (text == "nvidia-smi")
        return MeasuredQuantity::DeviceTotal;
    if (text == "max_memory_reserved")
        return MeasuredQuantity::Reserved;
    return std::nullopt;
}

double predictedMib(const CalibrationPoint &point, const ProfileConstants &constants)
{
    return heldMib(point, constants) + coefficient(point, kContext) * constants.contextMib +
           coefficient(point, kWorkspace) * constants.workspaceMib;
}

ProfileFit fitProfileConstants(const std::vector<CalibrationPoint> &points, const ProfileConstants &base)
{
    if (points.empty())
        throw std::invalid_argument("fitProfileConstants needs at least one point");
    std::size_t deviceRows = 0;
    std::size_t reservedRowsWithWorkspace = 0;
    for (const auto &point : points) {
        deviceRows += point.quantity == MeasuredQuantity::DeviceTotal ? 1 : 0;
        reservedRowsWithWorkspace += point.quantity == MeasuredQuantity::Reserved && point.runsMatrixProducts ? 1 : 0;
    }
    // A constant the readings cannot tell apart from the other stays at base:
    // without a reserved reading the workspace only ever appears beside the context.
    const std::array<bool, 2> free = {deviceRows > 0, reservedRowsWithWorkspace > 0};
    const std::array<double, 2> held = {base.contextMib, base.workspaceMib};

    std::vector<double> targets;
    for (const auto &point : points) {
        double target = point.measuredMib - heldMib(point, base);
        for (std::size_t constant = 0; constant < 2; ++constant)
            if (!free[constant])
                target -= coefficient(point, constant) * held[constant];
        targets.push_back(target);
    }
    const auto squaredError = [&](const std::array<double, 2> &values) {
        double sum = 0.0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            double residual = targets[i];
            for (std::size_t constant = 0; constant < 2; ++constant)
                if (free[constant])
                    residual -= coefficient(points[i], constant) * values[constant];
            sum += residual * residual;
        }
        return sum;
    };

    // Non-negative least squares in at most two unknowns: the optimum is the
    // unconstrained fit on some subset of them with the rest at zero, so
    // trying every subset and keeping the best feasible one is exact.
    std::array<double, 2> best = {0.0, 0.0};
    double bestError = squaredError(best);
    for (unsigned subset = 1; subset < 4; ++subset) {
        const bool useContext = (subset & 1u) != 0;
        const bool useWorkspace = (subset & 2u) != 0;
        if ((useContext && !free[kContext]) || (useWorkspace && !free[kWorkspace]))
            continue;
        // Normal equations over the subset's columns.
        double a00 = 0.0, a01 = 0.0, a11 = 0.0, b0 = 0.0, b1 = 0.0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            const double c0 = useContext ? coefficient(points[i], kContext) : 0.0;
            const double c1 = useWorkspace ? coefficient(points[i], kWorkspace) : 0.0;
            a00 += c0 * c0;
            a01 += c0 * c1;
            a11 += c1 * c1;
            b0 += c0 * targets[i];
            b1 += c1 * targets[i];
        }
        std::array<double, 2> values = {0.0, 0.0};
        if (useContext && useWorkspace) {
            // nvidia-smi rows × reserved rows: never zero when both constants are free.
            const double determinant = a00 * a11 - a01 * a01;
            values = {(b0 * a11 - a01 * b1) / determinant, (a00 * b1 - a01 * b0) / determinant};
        } else if (useContext) {
            values[kContext] = b0 / a00;
        } else {
            values[kWorkspace] = b1 / a11;
        }
        if (values[kContext] < 0.0 || values[kWorkspace] < 0.0)
            continue;
        const double error = squaredError(values);
        if (error < bestError) {
            bestError = error;
            best = values;
        }
    }

    ProfileFit fit;
    fit.contextFitted = free[kContext];
    fit.workspaceFitted = free[kWorkspace];
    fit.constants.contextMib = free[kContext] ? best[kContext] : base.contextMib;
    fit.constants.workspaceMib = free[kWorkspace] ? best[kWorkspace] : base.workspaceMib;
    fit.constants.cublasContextMib = base.cublasContextMib;
    fit.rmsResidualBeforeMib = rmsResidual(points, base);
    fit.rmsResidualAfterMib = rmsResidual(points, fit.constants);
    if (!free[kContext])
        fit.notes.push_back("max_memory_reserved counts the caching allocator only, never the CUDA context: "
                            "context_mib keeps the profile's " +
                            mibText(base.contextMib) + " MiB (add an nvidia-smi measurement to fit it)");
    if (free[kContext] && !free[kWorkspace])
        fit.notes.push_back("nvidia-smi shows the context and the workspace together: workspace_mib keeps the "
                            "profile's " +
                            mibText(base.workspaceMib) +
                            " MiB and context_mib takes the rest (add a max_memory_reserved measurement of "
                            "the same jobs to separate them)");
    for (const std::size_t constant : {kContext, kWorkspace})
        if (free[constant] && best[constant] == 0.0)
            fit.notes.push_back(std::string(constant == kContext ? "context_mib" : "workspace_mib") +
                                " stopped at 0 MiB: the measurements lie below the replay's reserved peaks, "
                                "so the replay overestimates this card's jobs");
    double meanMeasured = 0.0;
    for (const auto &point : points)
        meanMeasured += point.measuredMib / static_cast<double>(points.size());
    // Constants cannot absorb what grows with the job (cuDNN workspaces, another
    // allocator version): a residual that stays large says so.
    if (fit.rmsResidualAfterMib > kLargeResidualShare * meanMeasured)
        fit.notes.push_back("the residuals stay large (root mean square " + mibText(fit.rmsResidualAfterMib) +
                            " MiB after the fit): constant context and workspace do not explain these "
                            "measurements; see docs/estimate.md for what the replay leaves out");
    return fit;
}

GpuProfile calibratedProfile(const GpuProfile &base, const ProfileFit &fit, const std::string &calibrationFile,
                             const std::string &date, std::size_t deviceTotalRows, std::size_t reservedRows)
{
    const double context = roundedMib(fit.constants.contextMib);
    const double workspace = roundedMib(fit.constants.workspaceMib);
    if (!(context <= largestMib && workspace <= largestMib && context + workspace < base.capacityMib))
        throw io::InputError(calibrationFile, 0, 0,
                             "the fitted context (" + mibText(context) + " MiB) and workspace (" + mibText(workspace) +
                                 " MiB) leave nothing of " + base.name + "'s " + mibText(base.capacityMib) +
                                 " MiB: were these jobs measured on this card?");
    static const std::string kSuffix = " (calibrated)";
    const bool alreadyCalibrated = base.name.size() >= kSuffix.size() &&
                                   base.name.compare(base.name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
    GpuProfile profile;
    profile.name =
        alreadyCalibrated ? base.name : std::string(io::cutUtf8(base.name, kLongestText - kSuffix.size())) + kSuffix;
    profile.capacityMib = base.capacityMib;
    profile.contextMib = context;
    profile.workspaceMib = workspace;
    profile.cublasContextMib = std::min(base.cublasContextMib, context);
    const std::string fileName = std::filesystem::path(calibrationFile).filename().string();
    const std::string source =
        "calibrated by gpumem estimate --calibrate from " + std::string(io::cutUtf8(fileName, 200)) + " on " + date +
        " (" + std::to_string(deviceTotalRows) + " nvidia-smi, " + std::to_string(reservedRows) +
        " max_memory_reserved rows; context_mib " + (fit.contextFitted ? "fitted" : "kept") + ", workspace_mib " +
        (fit.workspaceFitted ? "fitted" : "kept") + "); the " + base.name + " profile it started from: " + base.source;
    profile.source = std::string(io::cutUtf8(source, kLongestText));
    return profile;
}

} // namespace gpumem::estimate
