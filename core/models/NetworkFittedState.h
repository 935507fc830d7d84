// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Standardizer.h"
#include "data/TargetTransform.h"
#include "io/Json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::data {

// The JSON form of a scaler as model.json keeps it: {"log": [flags], "mean": [...], "scale": [...]}.
void to_json(io::Json &json, const Standardizer &scaler);

} // namespace gpumem::data

namespace gpumem::models {

// What a trained BiGRU-Transformer keeps besides its weights, as the "fitted"
// member of its model.json records it: the scalers, the layer vocabulary, the
// target transform and the counts that size the network. Torch-free, so that the
// model-folder fuzzer reaches every check made before a tensor is allocated.
struct NetworkFittedState
{
    data::Standardizer featureScaler;
    data::Standardizer fieldScaler;           // fieldsPerLayer columns; empty without layer tokens
    std::vector<std::string> layerVocabulary; // index + 1 is the embedding row; 0 is unknown
    data::TargetTransform targetTransform;
    std::int64_t featureCount = 0;   // the schema's encoded columns, and the simulated peak when taken
    bool simulatedPeakInput = false; // the simulated allocator peak follows the encoded columns (SimulatedPeakInput.h)
    std::int64_t layerTypeCount = 0; // embedding rows: the vocabulary and the unknown type, or 0
    std::int64_t fieldsPerLayer = 0;
    std::int64_t members = 1; // networks of the ensemble, each with a weights file of its own

    // The name of the weights file in the model folder.
    static constexpr const char *weightsFile = "weights.safetensors";

    // Reads and checks what to_json() wrote: every count (members up to
    // maxEnsembleMembers; 1 when absent, as in folders older than ensembles) within the model-folder
    // limits and consistent with the others and with encodedFeatureCount (the
    // schema's encoded width, one less than featureCount with the simulated peak;
    // false when absent, as in folders older than that input), every scaler's statistics keepable
    // (data::Standardizer::isKeepable), and a target transform without a flaw
    // (data::TargetTransform::flaw). Throws io::InputError.
    static NetworkFittedState read(const io::Json &fitted, std::size_t encodedFeatureCount);
};

// The JSON form of the state: {"weights", "feature_scaling", "layer_vocabulary",
// "field_scaling" (with layer tokens only), "target_transform", "network", "members",
// "simulated_peak_input"}.
void to_json(io::Json &json, const NetworkFittedState &state);

} // namespace gpumem::models
