// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The small BiGRU-Transformer that the model tests build and compare with its
// Eigen copy: every part present, yet quick enough to run many times.

#include "models/BiGruTransformer.h"
#include "models/EigenNetwork.h"
#include "models/Hyperparameters.h"
#include "models/NeuralNetworkHyperparameters.h"

#include <cstdint>
#include <vector>

namespace gpumem::tests {

// The small network's widths, two fields a layer token; each test sets the
// features, the layer types and the heads it needs.
inline models::BiGruTransformerOptions smallNetworkOptions()
{
    models::BiGruTransformerOptions options;
    options.fieldsPerLayer = 2;
    options.dModel = 16;
    options.gruHidden = 8;
    options.encoderLayers = 2;
    options.feedforward = 32;
    options.headHidden = 8;
    return options;
}

// The regressor's hyperparameters for one network as small: trained in a moment on a
// few dozen rows, for epochs epochs, every other hyperparameter at its default.
inline models::Hyperparameters smallNetworkHyperparameters(int epochs)
{
    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    for (const char *assignment :
         {"d_model=16", "gru_hidden=8", "heads=2", "encoder_layers=1", "feedforward=32", "head_hidden=16",
          "batch_size=16", "validation_fraction=0", "learning_rate=0.01", "ensemble=1"})
        hyperparameters.setAssignment(assignment);
    hyperparameters.set("epochs", std::int64_t{epochs});
    return hyperparameters;
}

// One row's prediction by the network and by its Eigen copy.
struct NetworkAndCopy
{
    double network;
    double copy;
};

// Both predictions for features [1, featureCount] with `layers` random layer tokens.
inline NetworkAndCopy predictRandomLayers(models::BiGruTransformer &network, const models::EigenNetwork &copy,
                                          const torch::Tensor &features, std::int64_t layers)
{
    const auto types = torch::randint(0, network->options().layerTypeCount, {1, layers}, torch::kInt64);
    const auto fields = torch::randn({1, layers, network->options().fieldsPerLayer});
    const auto counts = torch::tensor(std::vector<std::int64_t>{layers}, torch::kInt64);
    return {network->forward(features, types, fields, counts).item<double>(),
            copy.predict(features.data_ptr<float>(), types.data_ptr<std::int64_t>(), fields.data_ptr<float>(), layers)};
}

} // namespace gpumem::tests
