// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Table.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::runtime {
class OperationControl;
}

namespace gpumem::data {

// Pearson's correlation of x and y over the positions where both are finite;
// nullopt when fewer than three positions are, or either is constant there.
// Positions past the shorter vector are left out. Thread-safe.
std::optional<double> pearsonCorrelation(const std::vector<double> &x, const std::vector<double> &y);

// Spearman's rank correlation over the same positions: Pearson's correlation of
// the ranks, tied values sharing their average rank (as scipy.stats.spearmanr).
std::optional<double> spearmanCorrelation(const std::vector<double> &x, const std::vector<double> &y);

// How one numeric feature goes with the target, over the rows that hold both.
struct FeatureCorrelation
{
    std::string column;
    std::optional<double> pearson;  // nullopt: too few rows, or a constant column
    std::optional<double> spearman; // likewise
    std::size_t rows = 0;           // rows with a finite value in the feature and the target
};

// Every feature's correlation with the target, for a first look at what drives it.
struct TargetCorrelations
{
    std::string target; // empty when there is no numeric target
    // The numeric features, the strongest |Pearson| first; those without a
    // correlation last, in table order.
    std::vector<FeatureCorrelation> numeric;
    // Features a correlation does not apply to (categorical, identifier and layer
    // sequence columns), in table order.
    std::vector<std::string> notNumeric;
};

// The correlations of the columns whose role is Feature with the Target column of
// roles (one per column of table). Empty (no target) when no column is the target or
// the target is not numeric. control, when given, is checked between columns; a
// cancelled run returns what it has. Thread-safe.
TargetCorrelations targetCorrelations(const Table &table, const std::vector<ColumnRole> &roles,
                                      const runtime::OperationControl *control = nullptr);

// A feature against the target, thinned to be drawn: at most maxPoints of the rows
// where both hold a value, drawn at random (fixed by seed) when there are more,
// in row order.
struct FeatureTargetSample
{
    // The feature's values: its numbers, or for a categorical feature the index
    // of each row's category in categories (a strip plot, one strip per category).
    std::vector<double> feature;
    std::vector<double> target;
    std::vector<std::string> categories; // categorical features only
    std::size_t usableRows = 0;          // rows holding both, before thinning
};

// The sample of feature (numeric or categorical) against the numeric target.
// Thread-safe.
FeatureTargetSample featureTargetSample(const Column &feature, const Column &target, std::size_t maxPoints,
                                        std::uint64_t seed);

} // namespace gpumem::data
