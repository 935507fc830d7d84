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
    // A shipped language model (architectures::architectureNames()) under a
    // fine-tuning or inference recipe on one or several GPUs: never built nor run
    // here, only estimated on a GPU profile (`gpumem probe --gpu`).
    Llm,
};

// Returns "mlp", "cnn", "transformer" or "llm".
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

    // Llm: the shipped architecture and what its config gives (layers, heads and
    // vocabulary above), written beside it so that a row describes the model; then the
    // recipe as `gpumem estimate --config` takes it (sequenceLength above is its
    // --seq-len, dtype its --dtype: float32, bfloat16 or float16).
    std::string architecture;
    std::int64_t parameters = 0; // architectures::parameterCount
    int hiddenSize = 0;
    int keyValueHeads = 0;
    int intermediateSize = 0;
    int experts = 0;                  // routed experts of a mixture (0: a dense MLP)
    std::string autocast = "none";    // none, or bfloat16: float32 weights, autocast's compute dtype
    int loraRank = 0;                 // 0: a full fine-tune
    std::string loraTargets = "none"; // the adapted linears joined by '+' ("q_proj+v_proj"), or "all-linear"
    bool qlora = false;
    bool checkpointing = false;
    std::string mode = "training"; // training or inference
    int generated = 0;             // inference: tokens generated after the prompt
    int gpus = 1;
    std::string sharding = "none"; // none (one GPU), ddp, zero1, zero2, zero3 or fsdp
    int tensorParallel = 1;

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

// The optimizers an llm job draws from (`gpumem estimate --optimizer`): adamw, adam,
// sgd, adamw_8bit, adafactor.
const std::vector<std::string> &languageModelOptimizers();

// The number of optimizer state tensors per parameter tensor: 0 for sgd, 1 for
// sgd_momentum, 2 for adam and adamw. Throws io::InputError for an unknown name.
int optimizerStatesPerParameter(const std::string &optimizer);

} // namespace gpumem::probe
