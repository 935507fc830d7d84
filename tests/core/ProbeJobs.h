// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small probe jobs written out by hand, for the tests that check what the probe
// builds and measures against numbers worked out in the test.

#include "probe/JobConfiguration.h"

#include <string>

namespace gpumem::tests {

// An MLP: depth hidden layers from width following pattern, ReLU, then classes outputs.
inline probe::JobConfiguration mlpJob(int inputs, int depth, int width, const std::string &pattern, int classes)
{
    probe::JobConfiguration job;
    job.family = probe::JobFamily::Mlp;
    job.inputFeatures = inputs;
    job.depth = depth;
    job.width = width;
    job.widthPattern = pattern;
    job.activation = "relu";
    job.classes = classes;
    return job;
}

// A CNN of blocks 3×3 convolutions, each followed by 2×2 max pooling, on square
// images of resolution pixels.
inline probe::JobConfiguration pooledCnnJob(int channels, int resolution, int blocks, int baseChannels, int classes)
{
    probe::JobConfiguration job;
    job.family = probe::JobFamily::Cnn;
    job.inputChannels = channels;
    job.resolution = resolution;
    job.blocks = blocks;
    job.baseChannels = baseChannels;
    job.kernelSize = 3;
    job.downsampling = "pool";
    job.classes = classes;
    return job;
}

// A ReLU Transformer language model of layers encoder layers.
inline probe::JobConfiguration transformerJob(int layers, int dModel, int heads, int sequence, int vocabulary)
{
    probe::JobConfiguration job;
    job.family = probe::JobFamily::Transformer;
    job.layers = layers;
    job.dModel = dModel;
    job.heads = heads;
    job.feedForward = 2 * dModel;
    job.sequenceLength = sequence;
    job.vocabulary = vocabulary;
    job.activation = "relu";
    return job;
}

} // namespace gpumem::tests
