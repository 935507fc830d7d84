// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/InputEditor.h"
#include "evaluation/PermutationImportance.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::evaluation {

// The values one numeric input is set to for its partial dependence: evenly
// spaced from the smallest value of the data past the largest, to twice the
// largest (or one range beyond it when values are negative), so that a chart
// shows what each model does outside what it was trained on.
struct PartialDependenceGrid
{
    std::string input;
    std::size_t inputIndex = 0; // into InputEditor::inputs()
    double trainingMinimum = 0.0;
    double trainingMaximum = 0.0;
    std::vector<double> values;
};

// Returns the grid of every numeric input of editor, points values each (at least 2).
// An input that holds one value gets a grid from it to twice it (or to it + 1 at 0).
std::vector<PartialDependenceGrid> partialDependenceGrids(const InputEditor &editor, int points);

// Returns up to count dataset rows of rowCount, chosen with seed and sorted: the
// rows every model's partial dependence averages over.
std::vector<Eigen::Index> partialDependenceRows(std::size_t rowCount, std::size_t count, std::uint64_t seed);

// Returns predict's partial dependence on grid's input: for each grid value, the
// mean prediction over rows with the input set to that value in every row (the
// rows' other columns as they are). One prediction of rows × values rows.
std::vector<double> partialDependence(const DatasetPredictor &predict, const InputEditor &editor,
                                      const std::vector<Eigen::Index> &rows, const PartialDependenceGrid &grid);

// One model's partial dependence on one input: at each grid value the mean over
// the folds' fitted models, and its sample standard deviation (0 for one fold).
struct PartialDependenceCurve
{
    std::string input;
    std::vector<double> mean;
    std::vector<double> standardDeviation;
};

// Pools the folds' curves (folds[f][grid][value]) of grids; a fold with none (cancelled) is left out.
std::vector<PartialDependenceCurve>
summarisePartialDependence(const std::vector<PartialDependenceGrid> &grids,
                           const std::vector<std::vector<std::vector<double>>> &folds);

} // namespace gpumem::evaluation
