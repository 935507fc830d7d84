// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/MlpTraceModel.h"

#include "io/InputError.h"
#include "io/NamedValues.h"
#include "probe/JobConfiguration.h"

#include <cmath>
#include <cstdint>

namespace gpumem::probe {

namespace {

// Hands out block numbers and writes the events.
class Recorder
{
  public:
    std::uint64_t allocate(double bytes)
    {
        const std::uint64_t block = mNext++;
        const auto size = static_cast<std::uint64_t>(std::max(0.0, bytes));
        mSizes.push_back(size);
        mTrace.push_back({block, size, false});
        return block;
    }
    void release(std::uint64_t block) { mTrace.push_back({block, mSizes[block], true}); }
    AllocationTrace take() { return std::move(mTrace); }

  private:
    std::uint64_t mNext = 0;
    std::vector<std::uint64_t> mSizes;
    AllocationTrace mTrace;
};

enum class Kind
{
    Linear,
    BatchNorm,
    Dropout,
    KeepsOutput, // ReLU, Sigmoid, Tanh, ELU, Softmax: backward needs the result
    KeepsInput,  // every other activation: backward needs the input
};

Kind kindOf(const std::string &type)
{
    constexpr io::NamedValues<Kind, 11> kinds{{{"linear", Kind::Linear},
                                               {"batch_normalization", Kind::BatchNorm},
                                               {"dropout", Kind::Dropout},
                                               {"ReLU", Kind::KeepsOutput},
                                               {"Sigmoid", Kind::KeepsOutput},
                                               {"Tanh", Kind::KeepsOutput},
                                               {"ELU", Kind::KeepsOutput},
                                               {"Softmax", Kind::KeepsOutput},
                                               {"LogSoftmax", Kind::KeepsOutput},
                                               {"Hardtanh", Kind::KeepsOutput},
                                               {"ReLU6", Kind::KeepsOutput}}};
    return io::valueNamed(kinds, type).value_or(Kind::KeepsInput);
}

struct Layer
{
    Kind kind = Kind::KeepsInput;
    double outputs = 0.0;        // per sample
    double inputs = 0.0;         // per sample
    std::vector<double> tensors; // parameter tensors, in elements
};

} // namespace

AllocationTrace MlpTraceModel::trace(const std::vector<data::LayerTuple> &layerTuples, int batchSize,
                                     const std::string &optimizer, int bytesPerElement, int steps)
{
    if (layerTuples.empty() || layerTuples.front().type != "linear" || layerTuples.front().fields.size() < 2)
        throw io::InputError("an MLP layer list must start with a ('linear', outputs, parameters) layer");
    const int states = optimizerStatesPerParameter(optimizer);
    const double element = bytesPerElement;
    const double batch = batchSize;

    std::vector<Layer> layers;
    double width = layerTuples.front().fields[1] / std::max(1.0, layerTuples.front().fields[0]) - 1.0;
    const double inputWidth = std::round(width);
    width = inputWidth;
    for (const auto &tuple : layerTuples) {
        Layer layer;
        layer.kind = kindOf(tuple.type);
        layer.inputs = width;
        layer.outputs = tuple.fields.empty() ? width : tuple.fields[0];
        const double parameters = tuple.fields.size() > 1 ? tuple.fields[1] : 0.0;
        if (layer.kind == Kind::Linear)
            layer.tensors = {parameters - layer.outputs, layer.outputs}; // weight, bias
        else if (layer.kind == Kind::BatchNorm)
            layer.tensors = {layer.outputs, layer.outputs}; // weight, bias
        else if (parameters > 0.0)
            layer.tensors = {parameters};
        layers.push_back(layer);
        width = layer.outputs;
    }
    const double classes = width;

    Recorder recorder;
    // The model on the device: parameters, then batch-norm running statistics.
    std::vector<double> parameterBytes;
    for (const auto &layer : layers) {
        for (double elements : layer.tensors) {
            recorder.allocate(elements * element);
            parameterBytes.push_back(elements * element);
        }
        if (layer.kind == Kind::BatchNorm) {
            recorder.allocate(layer.outputs * element); // running_mean
            recorder.allocate(layer.outputs * element); // running_var
            recorder.allocate(8);                       // num_batches_tracked (int64)
        }
    }

    std::vector<std::uint64_t> gradients;
    std::vector<std::uint64_t> stateBlocks;
    std::uint64_t previousInput = 0, previousLabels = 0, previousOutput = 0, previousLoss = 0;
    bool havePrevious = false;
    for (int step = 0; step < steps; ++step) {
        // zero_grad(set_to_none=True) drops last step's gradients.
        for (std::uint64_t gradient : gradients)
            recorder.release(gradient);
        gradients.clear();
        // The loader's next batch is copied over before the old one is dropped.
        const std::uint64_t input = recorder.allocate(batch * inputWidth * element);
        const std::uint64_t labels = recorder.allocate(batch * 8);
        if (havePrevious) {
            recorder.release(previousInput);
            recorder.release(previousLabels);
        }

        // Forward. A tensor is held by the layer that saved it; others die once consumed.
        struct Saved
        {
            std::vector<std::uint64_t> blocks;
        };
        std::vector<Saved> saved(layers.size());
        std::uint64_t current = input;
        bool currentOwned = false; // the batch belongs to the loop, not to the graph
        bool currentKeptByProducer = false;
        for (std::size_t index = 0; index < layers.size(); ++index) {
            const Layer &layer = layers[index];
            const std::uint64_t output = recorder.allocate(batch * layer.outputs * element);
            bool inputKept = false;
            switch (layer.kind) {
            case Kind::Linear:
            case Kind::KeepsInput: inputKept = true; break;
            case Kind::BatchNorm:
                inputKept = true;
                saved[index].blocks.push_back(recorder.allocate(layer.outputs * element)); // save_mean
                saved[index].blocks.push_back(recorder.allocate(layer.outputs * element)); // save_invstd
                break;
            case Kind::Dropout:
                saved[index].blocks.push_back(recorder.allocate(batch * layer.outputs)); // bool mask
                break;
            case Kind::KeepsOutput: break;
            }
            // An input its producer keeps lives until the producer's backward, which runs last.
            if (currentOwned && !currentKeptByProducer) {
                if (inputKept)
                    saved[index].blocks.push_back(current);
                else
                    recorder.release(current);
            }
            currentOwned = true;
            currentKeptByProducer = layer.kind == Kind::KeepsOutput;
            if (currentKeptByProducer)
                saved[index].blocks.push_back(output);
            current = output;
        }
        // Cross-entropy: log_softmax (kept), the loss and the total weight (kept).
        const std::uint64_t logProbabilities = recorder.allocate(batch * classes * element);
        const std::uint64_t loss = recorder.allocate(element);
        const std::uint64_t totalWeight = recorder.allocate(element);
        // The loop's `outputs` variable holds the model output until the next step rebinds it.
        const std::uint64_t output = current;
        if (havePrevious) {
            recorder.release(previousOutput);
            recorder.release(previousLoss);
        }

        // Backward, last layer first; each node frees its saved tensors after running.
        const std::uint64_t seed = recorder.allocate(element);
        std::uint64_t gradient = recorder.allocate(batch * classes * element); // nll_loss backward
        recorder.release(seed);
        recorder.release(totalWeight);
        std::uint64_t next = recorder.allocate(batch * classes * element); // log_softmax backward
        recorder.release(gradient);
        recorder.release(logProbabilities);
        gradient = next;
        for (std::size_t index = layers.size(); index-- > 0;) {
            const Layer &layer = layers[index];
            const bool needsInputGradient = index > 0;
            std::uint64_t inputGradient = 0;
            if (needsInputGradient)
                inputGradient = recorder.allocate(batch * layer.inputs * element);
            for (double elements : layer.tensors)
                gradients.push_back(recorder.allocate(elements * element));
            recorder.release(gradient);
            for (std::uint64_t block : saved[index].blocks)
                if (block != output)
                    recorder.release(block);
            gradient = inputGradient;
        }

        // optimizer.step()
        if (step == 0) {
            for (double bytes : parameterBytes)
                for (int state = 0; state < states; ++state)
                    stateBlocks.push_back(recorder.allocate(bytes));
        }
        if (states == 2) {
            std::vector<std::uint64_t> temporaries;
            for (double bytes : parameterBytes)
                temporaries.push_back(recorder.allocate(bytes)); // _foreach_sqrt(exp_avg_sq)
            for (std::uint64_t block : temporaries)
                recorder.release(block);
        }
        previousInput = input;
        previousLabels = labels;
        previousOutput = output;
        previousLoss = loss;
        havePrevious = true;
    }
    return recorder.take();
}

} // namespace gpumem::probe
