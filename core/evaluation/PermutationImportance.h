// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/InputEditor.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpumem::evaluation {

// Predicts every row of a dataset in the target's units, e.g. a fitted model's predict.
using DatasetPredictor = std::function<Eigen::VectorXd(const data::Dataset &)>;

// Returns the seed of the shuffle of input in repetition repeat on split fold:
// it depends on nothing about the model, so every model is scored on identical shuffles.
std::uint64_t permutationSeed(std::uint64_t seed, int fold, std::size_t input, int repeat);

// Measures how much worse predict gets on rows (a split's test rows) when one
// input's values are shuffled among those rows: for each input of editor and each
// of repeats shuffles (data::shuffledRows with permutationSeed), the RMSE with the
// input shuffled minus the RMSE of the rows as they are, in the target's units.
// An input the model ignores scores 0; a negative score is chance. Returns
// [input][repeat]; empty when cancelled() (optional, asked between inputs) says so.
// Thread-safe when predict is.
std::vector<std::vector<double>> permutationImportance(const DatasetPredictor &predict, const InputEditor &editor,
                                                       const std::vector<Eigen::Index> &rows, int repeats,
                                                       std::uint64_t seed, int fold,
                                                       const std::function<bool()> &cancelled = {});

// One input's permutation importance for one model: the mean increase of RMSE
// (target units) over every fold and shuffle, and its sample standard deviation.
struct InputImportance
{
    std::string input;
    double mean = 0.0;
    double standardDeviation = 0.0; // 0 for a single value
    std::size_t measurements = 0;   // folds × shuffles
};

// Pools the per-fold scores of permutationImportance (folds[f][input][repeat]) by
// input; a fold with no scores (cancelled) is left out.
std::vector<InputImportance> summariseImportance(const std::vector<std::string> &inputs,
                                                 const std::vector<std::vector<std::vector<double>>> &folds);

} // namespace gpumem::evaluation
