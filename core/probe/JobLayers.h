// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/LayerSequenceParser.h"
#include "probe/JobConfiguration.h"

#include <string>
#include <vector>

namespace gpumem::probe {

// The layers of a job in the GPUMemNet layer-sequence format: one
// (layer type, activations, parameters) tuple per layer, where activations are
// the layer's output elements per sample and parameters its trainable
// elements. Type names follow GPUMemNet where they overlap ('linear',
// 'batch_normalization', 'dropout', PyTorch activation class names). Throws
// io::InputError when the configuration cannot be built (e.g. a feature map
// pooled to nothing).
std::vector<data::LayerTuple> describeLayers(const JobConfiguration &job);

// Returns layers as "[('linear', 256, 8448), ('ReLU', 256, 0)]", which
// data::parseLayerSequence() reads back.
std::string formatLayerSequence(const std::vector<data::LayerTuple> &layers);

// The widths of an MLP's hidden layers, first to last.
std::vector<int> hiddenWidths(const JobConfiguration &job);

// The PyTorch class name of an activation ("relu" gives "ReLU").
std::string activationClassName(const std::string &activation);

} // namespace gpumem::probe
