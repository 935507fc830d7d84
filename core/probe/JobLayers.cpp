// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/JobLayers.h"

#include "io/InputError.h"

#include <algorithm>
#include <cstdio>

namespace gpumem::probe {

namespace {

void add(std::vector<data::LayerTuple> &layers, const char *type, double activations, double parameters)
{
    layers.push_back({type, {activations, parameters}});
}

void addLinear(std::vector<data::LayerTuple> &layers, double inputs, double outputs, double positions)
{
    add(layers, "linear", outputs * positions, inputs * outputs + outputs);
}

void describeMlp(const JobConfiguration &job, std::vector<data::LayerTuple> &layers)
{
    double previous = job.inputFeatures;
    const std::string activation = activationClassName(job.activation);
    for (int width : hiddenWidths(job)) {
        addLinear(layers, previous, width, 1);
        if (job.batchNorm)
            add(layers, "batch_normalization", width, 2.0 * width);
        layers.push_back({activation, {static_cast<double>(width), 0.0}});
        if (job.dropout > 0.0)
            add(layers, "dropout", width, 0);
        previous = width;
    }
    addLinear(layers, previous, job.classes, 1);
}

void describeCnn(const JobConfiguration &job, std::vector<data::LayerTuple> &layers)
{
    double channels = job.inputChannels;
    int size = job.resolution;
    for (int block = 0; block < job.blocks; ++block) {
        const double out = job.channelsOfBlock(block);
        const double kernelWeights = channels * out * job.kernelSize * job.kernelSize;
        if (job.downsampling == "stride")
            size = (size + 1) / 2; // stride 2 with "same" padding: ceil(size / 2)
        add(layers, "conv2d", out * size * size, kernelWeights + (job.batchNorm ? 0.0 : out));
        if (job.batchNorm)
            add(layers, "batch_normalization", out * size * size, 2.0 * out);
        add(layers, "ReLU", out * size * size, 0);
        if (job.downsampling == "pool") {
            size /= 2;
            if (size == 0)
                throw io::InputError("a " + std::to_string(job.resolution) + "-pixel input pooled " +
                                     std::to_string(job.blocks) + " times leaves no pixel");
            add(layers, "max_pool", out * size * size, 0);
        }
        channels = out;
    }
    add(layers, "global_avg_pool", channels, 0);
    if (job.headHidden > 0) {
        addLinear(layers, channels, job.headHidden, 1);
        add(layers, "ReLU", job.headHidden, 0);
        addLinear(layers, job.headHidden, job.classes, 1);
    } else {
        addLinear(layers, channels, job.classes, 1);
    }
}

void describeTransformer(const JobConfiguration &job, std::vector<data::LayerTuple> &layers)
{
    const double positions = job.sequenceLength;
    const double d = job.dModel;
    const double tokens = positions * d;
    add(layers, "embedding", tokens, static_cast<double>(job.vocabulary) * d);
    add(layers, "positional_embedding", tokens, tokens);
    const bool dropout = job.dropout > 0.0;
    const std::string activation = activationClassName(job.activation);
    for (int layer = 0; layer < job.layers; ++layer) {
        add(layers, "multihead_attention", tokens, 4.0 * d * d + 4.0 * d);
        if (dropout)
            add(layers, "dropout", tokens, 0);
        add(layers, "layer_norm", tokens, 2.0 * d);
        addLinear(layers, d, job.feedForward, positions);
        layers.push_back({activation, {positions * job.feedForward, 0.0}});
        if (dropout)
            add(layers, "dropout", positions * job.feedForward, 0);
        addLinear(layers, job.feedForward, d, positions);
        if (dropout)
            add(layers, "dropout", tokens, 0);
        add(layers, "layer_norm", tokens, 2.0 * d);
    }
    addLinear(layers, d, job.vocabulary, positions);
}

} // namespace

std::vector<int> hiddenWidths(const JobConfiguration &job)
{
    std::vector<int> widths;
    for (int layer = 0; layer < job.depth; ++layer) {
        int width = job.width;
        if (job.widthPattern == "pyramid")
            width = std::max(job.width >> std::min(layer, 20), 8);
        else if (job.widthPattern == "bottleneck" && layer > 0 && layer + 1 < job.depth)
            width = std::max(job.width / 4, 8);
        widths.push_back(width);
    }
    return widths;
}

std::string activationClassName(const std::string &activation)
{
    static const std::pair<const char *, const char *> names[] = {{"relu", "ReLU"},
                                                                  {"gelu", "GELU"},
                                                                  {"tanh", "Tanh"},
                                                                  {"sigmoid", "Sigmoid"},
                                                                  {"leaky_relu", "LeakyReLU"},
                                                                  {"elu", "ELU"},
                                                                  {"silu", "SiLU"},
                                                                  {"softplus", "Softplus"}};
    for (const auto &[name, className] : names)
        if (activation == name)
            return className;
    throw io::InputError("unknown activation " + io::quoteForMessage(activation));
}

std::vector<data::LayerTuple> describeLayers(const JobConfiguration &job)
{
    std::vector<data::LayerTuple> layers;
    switch (job.family) {
    case JobFamily::Mlp: describeMlp(job, layers); break;
    case JobFamily::Cnn: describeCnn(job, layers); break;
    case JobFamily::Transformer: describeTransformer(job, layers); break;
    case JobFamily::Llm:
        throw io::InputError("an llm job is a shipped language model, described by its architecture, not by layers");
    }
    return layers;
}

std::string formatLayerSequence(const std::vector<data::LayerTuple> &layers)
{
    std::string text = "[";
    char number[32];
    for (std::size_t index = 0; index < layers.size(); ++index) {
        text += index == 0 ? "('" : ", ('";
        text += layers[index].type;
        text += '\'';
        for (double field : layers[index].fields) {
            std::snprintf(number, sizeof number, ", %.17g", field);
            text += number;
        }
        text += ')';
    }
    return text + "]";
}

} // namespace gpumem::probe
