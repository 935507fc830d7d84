// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"
#include "data/FeatureEncoder.h"
#include "models/Hyperparameters.h"

#include <cstdint>
#include <string>

namespace gpumem::models {

// The data sizes that shape the network (see describeArchitecture). The defaults
// are a GPUMemNet-like MLP dataset: what `gpumem describe-model` and the
// workbench's model page show before any data is given.
struct ArchitectureSizes
{
    std::int64_t features = 40; // the encoder's columns
    std::int64_t layerTypes = 16;
    std::int64_t fieldsPerLayer = 2;
    std::int64_t typicalLayers = 17; // per row
    // The data's, which decides how features group into tokens; empty for the
    // example sizes, whose every feature is a token.
    data::FeatureEncoding encoding;
    // Whether the rows allow the simulated allocator peak as one more input
    // (SimulatedPeakInput.h): the network takes it when allocator_input is on.
    bool simulatedPeak = false;
};

// The sizes of dataset, as a fit on all of its rows would find them. Throws
// io::InputError when the encoding would exceed its limits.
ArchitectureSizes architectureSizesOf(const data::Dataset &dataset);

// Whether the network turns each layer of the sequence column into a token: asked
// for by layer_tokens, and the rows hold layers (of layerTypes types, each with
// fieldsPerLayer numbers). The one rule for previews and fits alike.
bool takesLayerTokens(const Hyperparameters &hyperparameters, std::int64_t layerTypes, std::int64_t fieldsPerLayer);

// The most layers of one row that the network takes as layer tokens. Attention
// runs over every token of a row, so its memory grows with the square of the
// layers: the gpu preset (8 heads, 4 encoder layers) holds about 140 MB per row at
// 512 layers while training on the CPU, and a cell may list 8,192 layers
// (data::maxLayersPerSequence), 256 times that. The deepest shipped data, the
// torchvision models of datasets/zoo.csv.gz, has 366 layers; 384 keeps it.
constexpr std::size_t maxLayerTokens = 384;

// Throws io::InputError naming the line and column of the first row of dataset
// whose layer sequence holds more than maxLayerTokens layers. The network checks
// every row it trains on or predicts when it takes layer tokens.
void checkLayerTokens(const data::Dataset &dataset);

// What the network takes in besides the encoder's columns, for data of sizes under
// hyperparameters: the rule that describeArchitecture and the captions below follow. A
// fit decides the same from its training rows (NeuralNetworkRegressor::Impl::fitInputs,
// which runs the allocator only when allocator_input asks for it);
// tests/core/test_NeuralNetworkRegressor checks that a preview equals the trained network.
struct NetworkInputs
{
    bool simulatedPeak = false; // one more input after the columns
    bool layerTokens = false;   // one token per layer of the sequence column
};
NetworkInputs networkInputsOf(const Hyperparameters &hyperparameters, const ArchitectureSizes &sizes);

// The architecture and its inputs in words, as `gpumem describe-model` and the
// Model page caption them: "bigru_transformer for 12 features and the simulated
// allocator peak and layer tokens (16 layer types)", followed for an ensemble by
// how many networks it averages.
std::string describeNetworkInputs(const Hyperparameters &hyperparameters, const ArchitectureSizes &sizes);

} // namespace gpumem::models
