// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/SimulatedPeakInput.h"

#include "io/InputError.h"
#include "models/AllocatorSimulationRegressor.h"
#include "models/JobRowReader.h"

#include <cmath>

namespace gpumem::models {

std::optional<Eigen::VectorXd> simulatedPeakMebibytes(const data::Dataset &dataset)
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
        static_cast<std::uint64_t>(std::llround(AllocatorSimulationRegressor::defaultWorkspaceMebibytes * 1048576.0));
    Eigen::VectorXd peaks(static_cast<Eigen::Index>(dataset.rowCount()));
    for (std::size_t row = 0; row < dataset.rowCount(); ++row) {
        const JobRow job = reader->row(row);
        std::uint64_t bytes = 0;
        try {
            bytes = AllocatorSimulationRegressor::simulatedReservedBytes(job, workspaceBytes);
        } catch (const io::InputError &error) {
            throw reader->atRow(row, error);
        }
        peaks[static_cast<Eigen::Index>(row)] = static_cast<double>(bytes) / 1048576.0;
    }
    return peaks;
}

std::optional<Eigen::VectorXd> simulatedPeakWherePossible(const data::Dataset &dataset)
{
    try {
        return simulatedPeakMebibytes(dataset);
    } catch (const io::InputError &) {
        return std::nullopt; // layers the simulation cannot follow, e.g. a convolution first
    }
}

} // namespace gpumem::models
