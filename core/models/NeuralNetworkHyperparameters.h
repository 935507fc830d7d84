#pragma once

#include "models/Hyperparameters.h"

namespace gpumem::models {

// The hyperparameters of the BiGRU-optimised Transformer and of its training, with
// their defaults (the `default` preset), ranges, units and one-sentence help.
Hyperparameters neuralNetworkHyperparameters();

} // namespace gpumem::models
