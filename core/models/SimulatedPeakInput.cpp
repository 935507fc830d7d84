// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/SimulatedPeakInput.h"

#include "io/InputError.h"
#include "models/AllocatorSimulationRegressor.h"
#include "models/JobRowReader.h"
#include "probe/CachingAllocatorSimulator.h"

#include <algorithm>
#include <cmath>

namespace gpumem::models {

namespace {

constexpr double kMebibyte = 1048576.0;

// The stand-in of a row whose job the simulation cannot follow (SimulatedPeaks):
// what its tensors hold at once, taken from the row alone so that its prediction
// does not depend on the other rows of the file.
double standInMebibytes(const data::SequenceColumn &sequence, std::size_t row, double batch, double workspaceBytes)
{
    double parameters = 0.0;
    double activations = 0.0;
    if (sequence.isPresent(row) && sequence.fieldsPerLayer() >= 2)
        for (std::size_t layer = sequence.layerBegin(row); layer < sequence.layerEnd(row); ++layer) {
            activations += std::max(0.0, sequence.field(layer, 0));
            parameters += std::max(0.0, sequence.field(layer, 1));
        }
    if (!(batch >= 1.0 && std::isfinite(batch)))
        batch = 1.0;
    // float32 elements: weight, gradient and two Adam states per parameter; each
    // activation kept for backward and its gradient.
    const double bytes = 4.0 * (4.0 * parameters + 2.0 * batch * activations) + workspaceBytes;
    // Held to what the simulator itself would reserve at most, so that the input stays finite.
    return std::min(bytes, static_cast<double>(probe::CachingAllocatorSimulator::maxReservedBytes)) / kMebibyte;
}

} // namespace

std::optional<SimulatedPeaks> simulatedPeaks(const data::Dataset &dataset)
{
    if (!dataset.hasSequence())
        return std::nullopt;
    std::optional<JobRowReader> reader;
    try {
        // Adam is what allocator_sim assumes without an optimizer column: the
        // GPUMemNet measurements fit it ten times better than SGD (bench/README.md).
        reader.emplace(dataset, "the allocator simulation input", "adam");
    } catch (const io::InputError &) {
        return std::nullopt; // no batch size column
    }
    if (reader->describesProbeJobs())
        return std::nullopt;
    const auto workspaceBytes =
        static_cast<std::uint64_t>(std::llround(AllocatorSimulationRegressor::defaultWorkspaceMebibytes * kMebibyte));
    SimulatedPeaks peaks;
    peaks.mebibytes.resize(static_cast<Eigen::Index>(dataset.rowCount()));
    peaks.unfollowed.resize(dataset.rowCount());
    for (std::size_t row = 0; row < dataset.rowCount(); ++row) {
        double mebibytes = 0.0;
        try {
            const JobRow job = reader->row(row);
            mebibytes = static_cast<double>(AllocatorSimulationRegressor::simulatedReservedBytes(job, workspaceBytes)) /
                        kMebibyte;
        } catch (const io::InputError &error) {
            // One job the simulation cannot follow does not make the others unpredictable.
            peaks.unfollowed[row] = error.message();
            mebibytes =
                standInMebibytes(dataset.sequence(), row, reader->batchSize(row), static_cast<double>(workspaceBytes));
        }
        peaks.mebibytes[static_cast<Eigen::Index>(row)] = mebibytes;
    }
    return peaks;
}

std::optional<Eigen::VectorXd> simulatedPeakMebibytes(const data::Dataset &dataset)
{
    std::optional<SimulatedPeaks> peaks = simulatedPeaks(dataset);
    if (!peaks)
        return std::nullopt;
    return std::move(peaks->mebibytes);
}

std::optional<Eigen::VectorXd> simulatedPeakWherePossible(const data::Dataset &dataset)
{
    std::optional<SimulatedPeaks> peaks = simulatedPeaks(dataset);
    if (!peaks || std::any_of(peaks->unfollowed.begin(), peaks->unfollowed.end(),
                              [](const std::string &reason) { return !reason.empty(); }))
        return std::nullopt; // layers the simulation cannot follow, e.g. a convolution first
    return std::move(peaks->mebibytes);
}

} // namespace gpumem::models
