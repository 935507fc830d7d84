// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/Hyperparameters.h"
#include "models/Regressor.h"

#include <memory>
#include <string>
#include <vector>

namespace gpumem::models {

// The models this build can compare, by registry name, in the comparison's
// order: bigru_transformer first, then the baselines. XGBoost is absent from
// builds without libxgboost.
std::vector<std::string> regressorNames();

// The models `gpumem compare` and the workbench compare unless told otherwise:
// the paper's comparison (network, decision tree, random forest, AdaBoost,
// XGBoost) and ridge regression as the linear reference, where this build has them.
std::vector<std::string> defaultComparisonModels();

// The baseline a training of the network is measured against as it runs (the
// Training page's reference line): the strongest of the paper's baselines in this
// build, XGBoost, or the random forest in builds without libxgboost.
std::string referenceBaseline();

// Returns the library that computes a model and its version, e.g. "XGBoost 1.7.4".
std::string regressorLibrary(const std::string &name);

// Returns the display name of a model for reports and the workbench, e.g. "Random forest".
std::string regressorTitle(const std::string &name);

// Returns the hyperparameters of a model at their defaults (scikit-learn's or
// XGBoost's for the baselines). Throws io::InputError for an unknown name,
// listing the known ones.
Hyperparameters regressorHyperparameters(const std::string &name);

// Builds an unfitted model. Throws io::InputError for an unknown name or a
// device the model cannot use.
std::unique_ptr<Regressor> createRegressor(const std::string &name, Hyperparameters hyperparameters,
                                           ComputeSettings compute = {});

// Reads any model folder written by Regressor::save(). Throws io::InputError naming the file.
std::unique_ptr<Regressor> loadRegressor(const std::string &directory, ComputeSettings compute = {});
// The same for a folder whose model.json readModelMetadata() has read already.
std::unique_ptr<Regressor> loadRegressor(const io::Json &metadata, const std::string &directory,
                                         ComputeSettings compute = {});

} // namespace gpumem::models
