// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ModelTracer.h"

#include "estimate/StepRecording.h"

#include "io/InputError.h"
#include "io/RegularFile.h"
#include "probe/JobBuilder.h"
#include "probe/TrackingAllocator.h"

#include <torch/csrc/jit/python/update_graph_executor_opt.h>
#include <torch/script.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <cctype>
#include <mutex>
#include <new>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace gpumem::estimate {

namespace {

const char *const kExportHint = "export it with torch.jit.trace(model.train(), example).save(\"m.pt\")";

torch::ScalarType scalarTypeOf(const std::string &dtype)
{
    if (const auto type = probe::JobBuilder::findScalarType(dtype))
        return *type;
    throw io::InputError(io::parameter("dtype") + " takes float32, float64, bfloat16 or float16, not " +
                         io::quoteForMessage(dtype));
}

std::string firstLine(const std::string &text)
{
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

// The digits that follow the first occurrence of label in text, or "" (what std::regex
// would give, without it: GCC 12 warns falsely inside <regex> under the sanitizers).
std::string numberAfter(const std::string &text, const std::string &label)
{
    const std::size_t at = text.find(label);
    if (at == std::string::npos)
        return {};
    std::size_t end = at + label.size();
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
        ++end;
    return text.substr(at + label.size(), end - at - label.size());
}

std::string loadErrorMessage(const std::string &what)
{
    const std::string line = essentialErrorLine(what);
    // LibTorch names the versions when the file is newer than it reads.
    if (what.find("maximum supported version") != std::string::npos) {
        // LibTorch names both file format versions: "with version 11, but the maximum
        // supported version for reading is 10".
        const std::string saved = numberAfter(what, "with version ");
        const std::string readable = numberAfter(what, "reading is ");
        const bool named = !saved.empty() && !readable.empty();
        return "was saved by a newer PyTorch than this build's LibTorch " + std::string(TORCH_VERSION) + " reads" +
               (named ? " (file format version " + saved + "; it reads up to " + readable + ")" : std::string()) +
               "; export it again with PyTorch " + std::string(TORCH_VERSION) +
               " or older: torch.jit.trace(model.train(), example).save(\"m.pt\")";
    }
    if (what.find("zip archive") != std::string::npos || what.find("constants.pkl") != std::string::npos ||
        what.find("file not found") != std::string::npos)
        return "is not a TorchScript file (" + line + "); " + kExportHint;
    return "cannot be loaded as TorchScript: " + line + "; " + kExportHint;
}

// A trace that ran out of the CPU's memory: the batch is too large for this machine,
// whatever the shape; the estimate adds why it was traced whole.
std::string doesNotFitText(std::int64_t batchSize, const std::string &what)
{
    return "batch " + std::to_string(batchSize) + " does not fit in this machine's memory for a trace on the CPU (" +
           essentialErrorLine(what) + ")";
}

// Throws what a failed step means: the machine's memory, or the model with its input.
[[noreturn]] void throwModelFailure(const std::string &path, std::int64_t batchSize, const std::string &what)
{
    if (probe::isOutOfMemoryMessage(what))
        throw TraceOutOfMemory(path, 0, 0, doesNotFitText(batchSize, what));
    throw io::InputError(path, 0, 0,
                         "the model fails at batch " + std::to_string(batchSize) + ": " + essentialErrorLine(what) +
                             " (check " + io::parameter("input_shape") + ")");
}

torch::Tensor firstTensor(const c10::IValue &value)
{
    if (value.isTensor())
        return value.toTensor();
    if (value.isTuple())
        for (const auto &element : value.toTupleRef().elements())
            if (element.isTensor())
                return element.toTensor();
    if (value.isList())
        for (const c10::IValue &element : value.toListRef())
            if (element.isTensor())
                return element.toTensor();
    if (value.isGenericDict())
        for (const auto &entry : value.toGenericDict())
            if (entry.value().isTensor())
                return entry.value().toTensor();
    throw io::InputError("the model's output holds no tensor to compute a loss from");
}

} // namespace

struct ModelTracer::Model
{
    torch::jit::Module module;
    std::vector<torch::Tensor> parameters;
    std::vector<SetupBlock> storages; // parameters and buffers, one block per distinct storage
    // Gradients and optimizer states of one batch's trace are reused by the next
    // instead of being faulted in afresh (bench/README.md: vgg16 0.77× the time).
    probe::FreedBlockCache freedBlocks;
};

ModelTracer::ModelTracer(EstimateConfiguration configuration, const runtime::OperationControl *control)
    : mConfiguration(std::move(configuration))
    , mModel(std::make_unique<Model>())
    , mControl(control)
{
    const torch::ScalarType dtype = scalarTypeOf(mConfiguration.dtype);
    const std::string &path = mConfiguration.modelPath;
    // Opened and checked first: torch::jit::load reports a missing file as a zip error,
    // and would wait for ever on a FIFO with no writer. It reads the checked file
    // through the descriptor, so nothing can be swapped in between.
    const io::OpenedRegularFile modelFile(path);
    try {
        mModel->module = torch::jit::load(modelFile.descriptorPath(), torch::Device(torch::kCPU));
        mModel->module.train();
        // jit::Module::to(dtype) would convert integer buffers too (batch norm's
        // num_batches_tracked), so only floating-point tensors change type.
        const auto convert = [dtype](torch::Tensor tensor) {
            if (tensor.is_floating_point() && tensor.scalar_type() != dtype) {
                torch::NoGradGuard noGradients;
                tensor.set_data(tensor.to(dtype));
            }
        };
        for (const torch::Tensor &parameter : mModel->module.parameters())
            convert(parameter);
        for (const torch::Tensor &buffer : mModel->module.buffers())
            convert(buffer);
    } catch (const io::InputError &) {
        throw;
    } catch (const c10::Error &error) {
        throw io::InputError(path, 0, 0, loadErrorMessage(error.what_without_backtrace()));
    } catch (const std::exception &error) {
        throw io::InputError(path, 0, 0, loadErrorMessage(error.what()));
    }
    for (const torch::Tensor &parameter : mModel->module.parameters()) {
        mModel->parameters.push_back(parameter);
        if (parameter.is_floating_point())
            parameter.requires_grad_(true);
        mSummary.parameterBytes += static_cast<std::uint64_t>(parameter.numel()) * parameter.element_size();
        mSummary.parameterCount += parameter.numel();
    }
    std::vector<torch::Tensor> buffers;
    for (const torch::Tensor &buffer : mModel->module.buffers()) {
        mSummary.bufferBytes += static_cast<std::uint64_t>(buffer.numel()) * buffer.element_size();
        buffers.push_back(buffer);
    }
    std::unordered_set<const void *> seen;
    addStorageBlocks(mModel->parameters, Category::Parameters, seen, mModel->storages);
    addStorageBlocks(buffers, Category::Parameters, seen, mModel->storages);
}

ModelTracer::~ModelTracer() = default;

TaggedTrace ModelTracer::trace(std::int64_t batchSize) const
{
    const EstimateConfiguration &configuration = mConfiguration;
    const std::string &path = configuration.modelPath;
    if (configuration.inputShapes.empty())
        throw io::InputError("missing " + io::parameter("input_shape") + " (one sample's shape, e.g. 3,224,224)");
    const torch::ScalarType dtype = scalarTypeOf(configuration.dtype);

    torch::AutoGradMode gradients(true);
    torch::manual_seed(0);

    probe::TrackingAllocator allocator(true, 0);
    RecordedSteps recorded;
    // The gradients go however the trace ends, so the next trace starts without them.
    struct GradientReset
    {
        std::vector<torch::Tensor> &parameters;
        ~GradientReset()
        {
            for (auto &parameter : parameters)
                parameter.mutable_grad().reset();
        }
    } gradientReset{mModel->parameters};
    try {
        TracingScope scope(allocator);
        std::vector<c10::IValue> inputs;
        for (const auto &sample : configuration.inputShapes) {
            std::vector<std::int64_t> shape{batchSize};
            shape.insert(shape.end(), sample.begin(), sample.end());
            if (configuration.inputKind == InputKind::Tokens)
                inputs.emplace_back(torch::randint(configuration.vocabulary, shape, torch::kLong)); // [batch, …]
            else
                inputs.emplace_back(torch::randn(shape, torch::TensorOptions().dtype(dtype))); // [batch, …]
        }
        // The output lives until the next step's forward replaces it, as in the Python loop.
        torch::Tensor output;
        const auto lossOfStep = [&]() -> torch::Tensor {
            output = firstTensor(mModel->module.forward(inputs));
            if (configuration.loss == "cross_entropy") {
                if (output.dim() < 2)
                    throw io::InputError(path, 0, 0,
                                         "cross_entropy needs an output of at least 2 dimensions [batch, …, classes]; "
                                         "this one has " +
                                             std::to_string(output.dim()) + " (try " + io::parameter("loss") +
                                             " mse or sum)");
                const std::int64_t outputClasses = output.size(-1);
                const std::int64_t classes = configuration.classes.value_or(outputClasses);
                if (classes > outputClasses)
                    throw io::InputError(path, 0, 0,
                                         io::parameter("classes") + " " + std::to_string(classes) +
                                             " is more than the output's last dimension " +
                                             std::to_string(outputClasses));
                const torch::Tensor logits = output.reshape({-1, outputClasses}); // [rows, classes]
                const torch::Tensor targets = torch::randint(classes, {logits.size(0)}, torch::kLong); // [rows]
                return torch::nn::functional::cross_entropy(logits, targets);
            }
            if (configuration.loss == "mse")
                return torch::mse_loss(output, torch::randn_like(output));
            if (configuration.loss == "sum")
                return output.sum();
            throw io::InputError(io::parameter("loss") + " takes cross_entropy, mse or sum, not " +
                                 io::quoteForMessage(configuration.loss));
        };
        const AttentionKernel attention =
            configuration.attention == "math" ? AttentionKernel::Math : AttentionKernel::Fused;
        recorded = runTracedSteps(allocator, mModel->parameters, configuration.optimizer,
                                  configuration.optimizerImplementation, configuration.steps, attention, lossOfStep,
                                  mControl, configuration.clipGradNorm.has_value());
    } catch (const io::InputError &) {
        throw;
    } catch (const EstimateCancelled &) {
        throw;
    } catch (const probe::MemoryLimitExceeded &error) {
        throw TraceOutOfMemory(path, 0, 0, doesNotFitText(batchSize, error.what()));
    } catch (const std::bad_alloc &) {
        throw TraceOutOfMemory(path, 0, 0, doesNotFitText(batchSize, "out of memory"));
    } catch (const c10::Error &error) {
        throwModelFailure(path, batchSize, error.what_without_backtrace());
    } catch (const std::exception &error) {
        throwModelFailure(path, batchSize, error.what());
    }

    return tagTrace(batchSize, mModel->storages, recorded);
}

std::string essentialErrorLine(const std::string &text)
{
    std::istringstream lines(text);
    std::string line;
    std::string chosen;
    while (std::getline(lines, line)) {
        const auto position = line.find("Error: ");
        if (position != std::string::npos && line.find_first_of(" \t") > position)
            chosen = line.substr(position + 7);
    }
    if (chosen.empty())
        chosen = firstLine(text);
    while (!chosen.empty() && (chosen.back() == '\r' || chosen.back() == ' '))
        chosen.pop_back();
    return chosen;
}

} // namespace gpumem::estimate
