// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The small BiGRU-Transformer that the model tests build and compare with its
// Eigen copy: every part present, yet quick enough to run many times.

#include "models/BiGruTransformer.h"
#include "models/EigenNetwork.h"

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
