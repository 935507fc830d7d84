// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/Hyperparameters.h"
#include "models/RegressionTree.h"

#include <cstdint>
#include <vector>

namespace gpumem::models {

// Describes how each tree of a tree model grows (max_depth, min_samples_split,
// min_samples_leaf, max_features) with scikit-learn's defaults except the given
// depth (0: unlimited) and feature share.
std::vector<HyperparameterSpec> treeGrowthSpecs(std::int64_t maxDepth, double maxFeatures);

// Returns the options that the tree-growth hyperparameters ask for, for data of
// featureCount encoded columns: max_features is a share of them, at least one,
// rounded down as scikit-learn does.
RegressionTreeOptions treeGrowthOptions(const Hyperparameters &hyperparameters, Eigen::Index featureCount,
                                        std::uint64_t seed);

} // namespace gpumem::models
