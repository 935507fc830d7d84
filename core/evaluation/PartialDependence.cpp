// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/PartialDependence.h"

#include "data/SeededRandom.h"
#include "evaluation/MeanAndSpread.h"
#include "evaluation/Splits.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gpumem::evaluation {

std::vector<PartialDependenceGrid> partialDependenceGrids(const InputEditor &editor, int points)
{
    points = std::max(points, 2);
    std::vector<PartialDependenceGrid> grids;
    for (std::size_t input : editor.numericInputs()) {
        PartialDependenceGrid grid;
        grid.input = editor.inputs()[input].name;
        grid.inputIndex = input;
        std::tie(grid.trainingMinimum, grid.trainingMaximum) = editor.range(input);
        // Twice the largest value is "beyond" only for positive values (batch sizes, widths,
        // layer counts); otherwise the grid reaches one range past the largest.
        const double span = grid.trainingMaximum - grid.trainingMinimum;
        double reach = std::max(std::abs(grid.trainingMaximum), span);
        if (!(reach > 0.0))
            reach = 1.0;
        const double last = grid.trainingMaximum + reach;
        for (int point = 0; point < points; ++point)
            grid.values.push_back(grid.trainingMinimum +
                                  (last - grid.trainingMinimum) * static_cast<double>(point) / (points - 1));
        grids.push_back(std::move(grid));
    }
    return grids;
}

std::vector<Eigen::Index> partialDependenceRows(std::size_t rowCount, std::size_t count, std::uint64_t seed)
{
    // Mixed first: the splits shuffle with the seed itself, and these rows should not be the first fold's test rows.
    std::vector<Eigen::Index> rows =
        data::shuffledRows(static_cast<Eigen::Index>(rowCount), repetitionSeed(seed, std::numeric_limits<int>::max()));
    rows.resize(std::min(count, rows.size()));
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::vector<double> partialDependence(const DatasetPredictor &predict, const InputEditor &editor,
                                      const std::vector<Eigen::Index> &rows, const PartialDependenceGrid &grid)
{
    if (rows.empty())
        throw std::invalid_argument("partial dependence needs rows to average over");
    // Every (value, row) pair in one dataset: one prediction call, which a network batches.
    std::vector<Eigen::Index> repeated;
    std::vector<double> values;
    repeated.reserve(rows.size() * grid.values.size());
    values.reserve(repeated.capacity());
    for (double value : grid.values)
        for (Eigen::Index row : rows) {
            repeated.push_back(row);
            values.push_back(value);
        }
    const Eigen::VectorXd predicted = predict(editor.withNumbers(repeated, grid.inputIndex, values));
    const auto perValue = static_cast<Eigen::Index>(rows.size());
    std::vector<double> means;
    for (std::size_t point = 0; point < grid.values.size(); ++point)
        means.push_back(predicted.segment(static_cast<Eigen::Index>(point) * perValue, perValue).mean());
    return means;
}

std::vector<PartialDependenceCurve>
summarisePartialDependence(const std::vector<PartialDependenceGrid> &grids,
                           const std::vector<std::vector<std::vector<double>>> &folds)
{
    std::vector<PartialDependenceCurve> curves;
    for (std::size_t g = 0; g < grids.size(); ++g) {
        PartialDependenceCurve curve;
        curve.input = grids[g].input;
        for (std::size_t point = 0; point < grids[g].values.size(); ++point) {
            std::vector<double> values;
            for (const auto &fold : folds)
                if (g < fold.size() && point < fold[g].size())
                    values.push_back(fold[g][point]);
            const MeanAndSpread pooled = meanAndSpread(values);
            curve.mean.push_back(pooled.mean);
            curve.standardDeviation.push_back(pooled.standardDeviation);
        }
        curves.push_back(std::move(curve));
    }
    return curves;
}

} // namespace gpumem::evaluation
