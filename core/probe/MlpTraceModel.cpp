// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/MlpTraceModel.h"

#include "io/InputError.h"
#include "io/NamedValues.h"
#include "probe/JobConfiguration.h"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpumem::probe {

namespace {

// Hands out block numbers and writes the events.
class Recorder
{
  public:
    std::uint64_t allocate(double bytes)
    {
        // The sizes come from a data file's layer list: a tensor of 2^62 bytes or more
        // (or a NaN) is no job a GPU runs, and converting it would be undefined.
        if (!(bytes < 0x1p62))
            throw io::InputError("a tensor of " + std::to_string(bytes) +
                                 " bytes, beyond any GPU's memory: the layer sizes or the batch size are wrong");
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

// The layers of a layer list, each with its input width and parameter tensors.
std::vector<Layer> layersOf(const std::vector<data::LayerTuple> &layerTuples, double inputWidth)
{
    std::vector<Layer> layers;
    double width = inputWidth;
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
    return layers;
}

// Writes down the allocations of a plain PyTorch training loop over the layers,
// step by step: what each step allocates and frees, in order.
class TrainingLoopRecorder
{
  public:
    TrainingLoopRecorder(std::vector<Layer> layers, double inputWidth, double batch, double element, int states)
        : mLayers(std::move(layers))
        , mInputWidth(inputWidth)
        , mBatch(batch)
        , mElement(element)
        , mStates(states)
        , mClasses(mLayers.back().outputs)
    {
    }

    AllocationTrace record(int steps)
    {
        allocateModel();
        for (int step = 0; step < steps; ++step)
            recordStep(step);
        return mRecorder.take();
    }

  private:
    // A tensor is held by the layer that saved it, until that layer's backward.
    using SavedBlocks = std::vector<std::vector<std::uint64_t>>;

    // The model on the device: parameters, then batch-norm running statistics.
    void allocateModel()
    {
        for (const auto &layer : mLayers) {
            for (double elements : layer.tensors) {
                mRecorder.allocate(elements * mElement);
                mParameterBytes.push_back(elements * mElement);
            }
            if (layer.kind == Kind::BatchNorm) {
                mRecorder.allocate(layer.outputs * mElement); // running_mean
                mRecorder.allocate(layer.outputs * mElement); // running_var
                mRecorder.allocate(8);                        // num_batches_tracked (int64)
            }
        }
    }

    void recordStep(int step)
    {
        // zero_grad(set_to_none=True) drops last step's gradients.
        for (std::uint64_t gradient : mGradients)
            mRecorder.release(gradient);
        mGradients.clear();
        // The loader's next batch is copied over before the old one is dropped.
        const std::uint64_t input = mRecorder.allocate(mBatch * mInputWidth * mElement);
        const std::uint64_t labels = mRecorder.allocate(mBatch * 8);
        if (mHavePrevious) {
            mRecorder.release(mPreviousInput);
            mRecorder.release(mPreviousLabels);
        }
        SavedBlocks saved(mLayers.size());
        const std::uint64_t output = recordForward(input, saved);
        // Cross-entropy: log_softmax (kept), the loss and the total weight (kept).
        const std::uint64_t logProbabilities = mRecorder.allocate(mBatch * mClasses * mElement);
        const std::uint64_t loss = mRecorder.allocate(mElement);
        const std::uint64_t totalWeight = mRecorder.allocate(mElement);
        // The loop's `outputs` variable holds the model output until the next step rebinds it.
        if (mHavePrevious) {
            mRecorder.release(mPreviousOutput);
            mRecorder.release(mPreviousLoss);
        }
        recordBackward(saved, output, logProbabilities, totalWeight);
        recordOptimizerStep(step);
        mPreviousInput = input;
        mPreviousLabels = labels;
        mPreviousOutput = output;
        mPreviousLoss = loss;
        mHavePrevious = true;
    }

    // Returns the model's output; saved receives what each layer keeps for backward.
    std::uint64_t recordForward(std::uint64_t input, SavedBlocks &saved)
    {
        std::uint64_t current = input;
        bool currentOwned = false; // the batch belongs to the loop, not to the graph
        bool currentKeptByProducer = false;
        for (std::size_t index = 0; index < mLayers.size(); ++index) {
            const Layer &layer = mLayers[index];
            const std::uint64_t output = mRecorder.allocate(mBatch * layer.outputs * mElement);
            bool inputKept = false;
            switch (layer.kind) {
            case Kind::Linear:
            case Kind::KeepsInput: inputKept = true; break;
            case Kind::BatchNorm:
                inputKept = true;
                saved[index].push_back(mRecorder.allocate(layer.outputs * mElement)); // save_mean
                saved[index].push_back(mRecorder.allocate(layer.outputs * mElement)); // save_invstd
                break;
            case Kind::Dropout:
                saved[index].push_back(mRecorder.allocate(mBatch * layer.outputs)); // bool mask
                break;
            case Kind::KeepsOutput: break;
            }
            // An input its producer keeps lives until the producer's backward, which runs last.
            if (currentOwned && !currentKeptByProducer) {
                if (inputKept)
                    saved[index].push_back(current);
                else
                    mRecorder.release(current);
            }
            currentOwned = true;
            currentKeptByProducer = layer.kind == Kind::KeepsOutput;
            if (currentKeptByProducer)
                saved[index].push_back(output);
            current = output;
        }
        return current;
    }

    // Backward, last layer first; each node frees its saved tensors after running.
    void recordBackward(const SavedBlocks &saved, std::uint64_t output, std::uint64_t logProbabilities,
                        std::uint64_t totalWeight)
    {
        const std::uint64_t seed = mRecorder.allocate(mElement);
        std::uint64_t gradient = mRecorder.allocate(mBatch * mClasses * mElement); // nll_loss backward
        mRecorder.release(seed);
        mRecorder.release(totalWeight);
        const std::uint64_t next = mRecorder.allocate(mBatch * mClasses * mElement); // log_softmax backward
        mRecorder.release(gradient);
        mRecorder.release(logProbabilities);
        gradient = next;
        for (std::size_t index = mLayers.size(); index-- > 0;) {
            const Layer &layer = mLayers[index];
            std::uint64_t inputGradient = 0;
            if (index > 0) // the batch needs no gradient
                inputGradient = mRecorder.allocate(mBatch * layer.inputs * mElement);
            for (double elements : layer.tensors)
                mGradients.push_back(mRecorder.allocate(elements * mElement));
            mRecorder.release(gradient);
            for (std::uint64_t block : saved[index])
                if (block != output)
                    mRecorder.release(block);
            gradient = inputGradient;
        }
    }

    // optimizer.step(): the states at the first step, Adam's foreach temporaries at every one.
    void recordOptimizerStep(int step)
    {
        if (step == 0) {
            for (double bytes : mParameterBytes)
                for (int state = 0; state < mStates; ++state)
                    mRecorder.allocate(bytes);
        }
        if (mStates == 2) {
            std::vector<std::uint64_t> temporaries;
            for (double bytes : mParameterBytes)
                temporaries.push_back(mRecorder.allocate(bytes)); // _foreach_sqrt(exp_avg_sq)
            for (std::uint64_t block : temporaries)
                mRecorder.release(block);
        }
    }

    const std::vector<Layer> mLayers;
    const double mInputWidth;
    const double mBatch;
    const double mElement;
    const int mStates;
    const double mClasses;
    Recorder mRecorder;
    std::vector<double> mParameterBytes;
    std::vector<std::uint64_t> mGradients;
    std::uint64_t mPreviousInput = 0, mPreviousLabels = 0, mPreviousOutput = 0, mPreviousLoss = 0;
    bool mHavePrevious = false;
};

} // namespace

AllocationTrace MlpTraceModel::trace(const std::vector<data::LayerTuple> &layerTuples, int batchSize,
                                     const std::string &optimizer, int bytesPerElement, int steps)
{
    if (layerTuples.empty() || layerTuples.front().type != "linear" || layerTuples.front().fields.size() < 2)
        throw io::InputError("an MLP layer list must start with a ('linear', outputs, parameters) layer");
    // The first linear layer has (inputs + 1) × outputs parameters.
    const double inputWidth =
        std::round(layerTuples.front().fields[1] / std::max(1.0, layerTuples.front().fields[0]) - 1.0);
    TrainingLoopRecorder recorder(layersOf(layerTuples, inputWidth), inputWidth, batchSize, bytesPerElement,
                                  optimizerStatesPerParameter(optimizer));
    return recorder.record(steps);
}

} // namespace gpumem::probe
