// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small data sets and helpers shared by the tests of the tabular baselines and
// of the other code that reads a dataset from CSV text.

#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/SeededRandom.h"
#include "data/TableLoader.h"
#include "models/Regressor.h"

#include <Eigen/Core>

#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

namespace gpumem::tests {

// A dataset read from CSV text whose target column is "memory".
inline data::Dataset baselineDataset(const std::string &csv)
{
    const data::Table table = data::loadTableFromText(csv, "jobs.csv");
    data::RoleRequest request;
    request.target = table.columnIndex("memory") ? "memory" : "";
    std::vector<std::string> warnings;
    return data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
}

// rows rows of memory = 3·a − 2·b + 1000 (+ uniform noise in ±noise), with a
// and b uniform in [0, 100) and a two-valued category that adds 50 to memory.
inline std::string linearJobsCsv(int rows, double noise, std::uint64_t seed = 7)
{
    data::SeededRandom random(seed);
    std::string text = "a,b,kind,memory\n";
    for (int row = 0; row < rows; ++row) {
        const double a = std::round(random.unit() * 10000.0) / 100.0;
        const double b = std::round(random.unit() * 10000.0) / 100.0;
        const bool large = random.below(2) == 1;
        const double memory = 1000.0 + 3.0 * a - 2.0 * b + (large ? 50.0 : 0.0) + noise * (2.0 * random.unit() - 1.0);
        text += std::to_string(a) + ',' + std::to_string(b) + ',' + (large ? "large" : "small") + ',' +
                std::to_string(memory) + '\n';
    }
    return text;
}

// The indices 0..rowCount-1.
inline std::vector<Eigen::Index> firstRows(std::size_t rowCount)
{
    std::vector<Eigen::Index> rows(rowCount);
    for (std::size_t row = 0; row < rowCount; ++row)
        rows[row] = static_cast<Eigen::Index>(row);
    return rows;
}

// A vector of the given values.
inline Eigen::VectorXd vectorOf(std::initializer_list<double> values)
{
    Eigen::VectorXd result(static_cast<Eigen::Index>(values.size()));
    Eigen::Index row = 0;
    for (const double value : values)
        result(row++) = value;
    return result;
}

// CPU compute settings with a seed and a thread count.
inline models::ComputeSettings cpuSettings(std::uint64_t seed, int threads = 1)
{
    models::ComputeSettings compute;
    compute.device = "cpu";
    compute.seed = seed;
    compute.threads = threads;
    return compute;
}

// Root mean squared difference of two equally long vectors.
inline double rootMeanSquare(const Eigen::VectorXd &left, const Eigen::VectorXd &right)
{
    return std::sqrt((left - right).squaredNorm() / static_cast<double>(left.size()));
}

} // namespace gpumem::tests
