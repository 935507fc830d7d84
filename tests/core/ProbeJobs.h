// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small probe jobs written out by hand, for the tests that check what the probe
// builds and measures against numbers worked out in the test.

#include "probe/JobConfiguration.h"

#include <string>
#include <tuple>

namespace gpumem::tests {

// A job of family with every other field at its default; the helpers below set the
// sizes they take in one assignment, in the order of their arguments.
inline probe::JobConfiguration jobOf(probe::JobFamily family)
{
    probe::JobConfiguration job;
    job.family = family;
    return job;
}

// An MLP: depth hidden layers from width following pattern, ReLU, then classes outputs.
inline probe::JobConfiguration mlpJob(int inputs, int depth, int width, const std::string &pattern, int classes)
{
    probe::JobConfiguration job = jobOf(probe::JobFamily::Mlp);
    std::tie(job.inputFeatures, job.depth, job.width, job.classes) = std::tie(inputs, depth, width, classes);
    job.widthPattern = pattern;
    job.activation = "relu";
    return job;
}

// A CNN of blocks 3×3 convolutions, each followed by 2×2 max pooling, on square
// images of resolution pixels.
inline probe::JobConfiguration pooledCnnJob(int channels, int resolution, int blocks, int baseChannels, int classes)
{
    probe::JobConfiguration job = jobOf(probe::JobFamily::Cnn);
    job.kernelSize = 3;
    job.downsampling = "pool";
    std::tie(job.inputChannels, job.resolution, job.blocks, job.baseChannels, job.classes) =
        std::tie(channels, resolution, blocks, baseChannels, classes);
    return job;
}

// A ReLU Transformer language model of layers encoder layers.
inline probe::JobConfiguration transformerJob(int layers, int dModel, int heads, int sequence, int vocabulary)
{
    probe::JobConfiguration job = jobOf(probe::JobFamily::Transformer);
    job.feedForward = 2 * dModel;
    job.activation = "relu";
    std::tie(job.layers, job.dModel, job.heads, job.sequenceLength, job.vocabulary) =
        std::tie(layers, dModel, heads, sequence, vocabulary);
    return job;
}

} // namespace gpumem::tests
