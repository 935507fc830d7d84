// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/Hyperparameters.h"

#include <cstdint>

namespace gpumem::models {

// The most networks the "ensemble" hyperparameter may ask for, and a model folder hold.
inline constexpr std::int64_t maxEnsembleMembers = 16;

// The hyperparameters of the BiGRU-optimised Transformer and of its training, with
// their defaults (the `default` preset), ranges, units and one-sentence help.
Hyperparameters neuralNetworkHyperparameters();

// Returns the names whose values the other values make irrelevant: the GRU's
// with architecture transformer_only, the encoder's with bigru_only, and
// gru_dropout with a single GRU layer. The workbench disables their fields.
std::vector<std::string> unusedNetworkHyperparameters(const Hyperparameters &hyperparameters);

// Throws io::InputError, naming the hyperparameters, for combinations the
// network cannot train with: patience without a validation share to watch.
void checkNetworkHyperparameters(const Hyperparameters &hyperparameters);

} // namespace gpumem::models
