// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::probe {

// The kinds of network the probe builds.
enum class JobFamily
{
    Mlp,
    Cnn,
    Transformer,
};

// Returns "mlp", "cnn" or "transformer".
std::string_view jobFamilyName(JobFamily family);
// Parses a family name; throws io::InputError naming the known ones otherwise.
JobFamily parseJobFamily(std::string_view name);

// One training job as the probe runs it: the family's architecture knobs plus
// batch size, optimizer, element type and step count. Fields of other families
// are left at their defaults. Plain value; copy freely.
struct JobConfiguration
{
    JobFamily family = JobFamily::Mlp;
    int batchSize = 32;
    std::string optimizer = "sgd"; // sgd, sgd_momentum, adam, adamw
    std::string dtype = "float32"; // float32, float64 (CPU and CUDA), float16, bfloat16 (CUDA)
    int steps = 3;                 // training steps measured (forward, backward, optimizer step)

    // MLP: depth hidden layers whose widths follow widthPattern from width, then a classifier.
    int inputFeatures = 0;
    int depth = 0;
    int width = 0;
    std::string widthPattern; // uniform, pyramid (halving), bottleneck (narrow middle)
    std::string activation;   // MLP and Transformer: relu, gelu, tanh, sigmoid, leaky_relu, elu, silu, softplus
    bool batchNorm = false;   // MLP and CNN
    double dropout = 0.0;     // MLP and Transformer: drop probability, in hundredths
    int classes = 0;          // MLP and CNN: outputs of the classifier

    // CNN: blocks of convolution (+ batch norm) + ReLU, each downsampling by 2,
    // channels doubling from baseChannels (channelsOfBlock), then global average
    // pooling and a head (Linear, or Linear-ReLU-Linear when headHidden > 0).
    int inputChannels = 0;
    int resolution = 0; // input height = width, pixels
    int blocks = 0;
    int baseChannels = 0;
    int kernelSize = 0;
    std::string downsampling; // stride (stride-2 convolution) or pool (2×2 max pooling)
    int headHidden = 0;

    // Transformer: token embedding + learned positions, encoder layers, a
    // language-model head over the vocabulary.
    int layers = 0;
    int dModel = 0;
    int heads = 0;
    int feedForward = 0;
    int sequenceLength = 0;
    int vocabulary = 0;
    bool causal = false;

    // CNN: the output channels of block (0-based): baseChannels doubling per
    // block, at most kMaxChannels.
    int channelsOfBlock(int block) const;
    static constexpr int kMaxChannels = 512;

    // The configuration columns of a family's probe CSV, in order.
    static std::vector<std::string> columnNames(JobFamily family);
    // The cells of columnNames(family), as written to the CSV.
    std::vector<std::string> columnValues() const;
    // Identifies the configuration: its cells joined. Equal keys, equal jobs.
    std::string key() const;
    // Reads a configuration of family back from its cells; cell(name) returns
    // the text of a column. Throws io::InputError naming the first bad column.
    static JobConfiguration fromColumns(JobFamily family, const std::function<std::string(const std::string &)> &cell);
};

// The number of bytes of one element of dtype (float64 8, float32 4, float16 and bfloat16 2).
// Throws io::InputError for an unknown name.
int bytesPerElement(const std::string &dtype);

// The number of optimizer state tensors per parameter tensor: 0 for sgd, 1 for
// sgd_momentum, 2 for adam and adamw. Throws io::InputError for an unknown name.
int optimizerStatesPerParameter(const std::string &optimizer);

} // namespace gpumem::probe
