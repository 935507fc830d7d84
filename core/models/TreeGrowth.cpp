// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/TreeGrowth.h"

#include "models/HyperparameterSpecs.h"

#include <algorithm>

namespace gpumem::models {

std::vector<HyperparameterSpec> treeGrowthSpecs(std::int64_t maxDepth, double maxFeatures)
{
    return {
        integerSpec("max_depth", maxDepth, 0, 1000, "levels",
                    "Deepest level of a tree below its root; 0 grows until every leaf is pure."),
        integerSpec("min_samples_split", 2, 2, 1000000, "rows", "A node with fewer rows than this is not split."),
        integerSpec("min_samples_leaf", 1, 1, 1000000, "rows", "Every leaf keeps at least this many rows."),
        realSpec("max_features", maxFeatures, 1e-6, 1.0, "",
                 "Share of the encoded features tried at each split, drawn at random; 1 tries them all."),
    };
}

RegressionTreeOptions treeGrowthOptions(const Hyperparameters &hyperparameters, Eigen::Index featureCount,
                                        std::uint64_t seed)
{
    RegressionTreeOptions options;
    options.maxDepth = static_cast<int>(hyperparameters.integer("max_depth"));
    options.minSamplesSplit = static_cast<int>(hyperparameters.integer("min_samples_split"));
    options.minSamplesLeaf = static_cast<int>(hyperparameters.integer("min_samples_leaf"));
    const double share = hyperparameters.real("max_features");
    options.maxFeatures = std::max(1, static_cast<int>(share * static_cast<double>(featureCount)));
    options.seed = seed;
    return options;
}

} // namespace gpumem::models
