// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/JobBuilder.h"

#include "io/InputError.h"
#include "probe/JobLayers.h"

#include <stdexcept>
#include <utility>

namespace gpumem::probe {

namespace {

namespace nn = torch::nn;

template <typename Activation> nn::AnyModule makeActivation()
{
    return nn::AnyModule(Activation());
}

nn::AnyModule activationModule(const std::string &name)
{
    static const std::pair<const char *, nn::AnyModule (*)()> activations[] = {
        {"relu", makeActivation<nn::ReLU>},
        {"gelu", makeActivation<nn::GELU>},
        {"tanh", makeActivation<nn::Tanh>},
        {"sigmoid", makeActivation<nn::Sigmoid>},
        {"leaky_relu", makeActivation<nn::LeakyReLU>},
        {"elu", makeActivation<nn::ELU>},
        {"silu", makeActivation<nn::SiLU>},
        {"softplus", makeActivation<nn::Softplus>}};
    for (const auto &[known, make] : activations)
        if (name == known)
            return make();
    throw io::InputError("unknown activation " + io::quoteForMessage(name));
}

nn::Sequential buildMlp(const JobConfiguration &job)
{
    nn::Sequential network;
    int previous = job.inputFeatures;
    for (int width : hiddenWidths(job)) {
        network->push_back(nn::Linear(previous, width));
        if (job.batchNorm)
            network->push_back(nn::BatchNorm1d(width));
        network->push_back(activationModule(job.activation));
        if (job.dropout > 0.0)
            network->push_back(nn::Dropout(job.dropout));
        previous = width;
    }
    network->push_back(nn::Linear(previous, job.classes));
    return network;
}

nn::Sequential buildCnn(const JobConfiguration &job)
{
    nn::Sequential network;
    int channels = job.inputChannels;
    const bool stride = job.downsampling == "stride";
    for (int block = 0; block < job.blocks; ++block) {
        const int out = job.channelsOfBlock(block);
        network->push_back(nn::Conv2d(nn::Conv2dOptions(channels, out, job.kernelSize)
                                          .stride(stride ? 2 : 1)
                                          .padding(job.kernelSize / 2)
                                          .bias(!job.batchNorm)));
        if (job.batchNorm)
            network->push_back(nn::BatchNorm2d(out));
        network->push_back(nn::ReLU());
        if (!stride)
            network->push_back(nn::MaxPool2d(nn::MaxPool2dOptions(2)));
        channels = out;
    }
    network->push_back(nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions(1)));
    network->push_back(nn::Flatten());
    if (job.headHidden > 0) {
        network->push_back(nn::Linear(channels, job.headHidden));
        network->push_back(nn::ReLU());
        network->push_back(nn::Linear(job.headHidden, job.classes));
    } else {
        network->push_back(nn::Linear(channels, job.classes));
    }
    return network;
}

// A language model: tokens [sequence, batch] -> logits [sequence, batch, vocabulary].
class TransformerJobImpl : public nn::Module
{
  public:
    explicit TransformerJobImpl(const JobConfiguration &job)
        : mEmbedding(register_module("embedding", nn::Embedding(job.vocabulary, job.dModel)))
        , mPositions(register_parameter("positions", torch::randn({job.sequenceLength, 1, job.dModel}) * 0.02))
        , mHead(register_module("head", nn::Linear(job.dModel, job.vocabulary)))
    {
        for (int layer = 0; layer < job.layers; ++layer) {
            nn::TransformerEncoderLayerOptions options(job.dModel, job.heads);
            options.dim_feedforward(job.feedForward).dropout(job.dropout);
            if (job.activation == "gelu")
                options.activation(torch::kGELU);
            else if (job.activation != "relu")
                throw io::InputError("the Transformer takes relu or gelu, not " + io::quoteForMessage(job.activation));
            mLayers.push_back(register_module("layer" + std::to_string(layer), nn::TransformerEncoderLayer(options)));
        }
        if (job.causal)
            mMask = register_buffer("mask", causalMask(job.sequenceLength, torch::TensorOptions()));
    }

    // Gives the network another sequence length: the position table and the causal
    // mask are made again at that length, the tensors registered keeping their place.
    void setSequenceLength(int64_t length)
    {
        torch::NoGradGuard noGradients;
        mPositions.set_data(torch::randn({length, 1, mPositions.size(2)}, mPositions.options()) * 0.02);
        if (mMask.defined())
            mMask.set_data(causalMask(length, mMask.options()));
    }

    torch::Tensor forward(const torch::Tensor &tokens)
    {
        torch::Tensor hidden = mEmbedding(tokens) + mPositions; // [sequence, batch, d_model]
        for (auto &layer : mLayers)
            hidden = layer(hidden, mMask); // [sequence, batch, d_model]
        return mHead(hidden);              // [sequence, batch, vocabulary]
    }

  private:
    // -inf above the diagonal: a position sees only itself and earlier ones.
    static torch::Tensor causalMask(int64_t length, const torch::TensorOptions &options)
    {
        return torch::full({length, length}, -std::numeric_limits<float>::infinity(), options).triu(1);
    }

    nn::Embedding mEmbedding;
    torch::Tensor mPositions;
    nn::Linear mHead;
    std::vector<nn::TransformerEncoderLayer> mLayers;
    torch::Tensor mMask;
};
TORCH_MODULE(TransformerJob);

// A classifier's job: network fitted with cross-entropy to random labels below classes,
// drawn after input (a seeded run's batch depends on that order).
TrainingJob classifierJob(nn::Sequential network, const torch::Tensor &input, int64_t classes,
                          const torch::TensorOptions &labels)
{
    const torch::Tensor target = torch::randint(classes, {input.size(0)}, labels); // [batch]
    TrainingJob job;
    job.network = network.ptr();
    job.batch = {input, target};
    job.loss = [network, input, target]() mutable {
        return torch::cross_entropy_loss(network->forward(input), target);
    };
    return job;
}

// Shapes are checked here, before LibTorch is asked for anything absurd.
void checkShapes(const JobConfiguration &job)
{
    describeLayers(job);
    if (job.batchSize <= 0 || job.steps <= 0)
        throw io::InputError("batch size and steps must be positive");
    if (job.family == JobFamily::Transformer && (job.heads <= 0 || job.dModel % job.heads != 0))
        throw io::InputError("d_model " + std::to_string(job.dModel) + " is not divisible by " +
                             std::to_string(job.heads) + " heads");
}

std::shared_ptr<nn::Module> buildNetwork(const JobConfiguration &job, const torch::Device &device)
{
    const torch::ScalarType type = JobBuilder::scalarType(job.dtype);
    std::shared_ptr<nn::Module> network;
    switch (job.family) {
    case JobFamily::Mlp: network = buildMlp(job).ptr(); break;
    case JobFamily::Cnn: network = buildCnn(job).ptr(); break;
    case JobFamily::Transformer: network = TransformerJob(job).ptr(); break;
    case JobFamily::Llm: throw std::logic_error("an llm job is estimated, never built (checkShapes refuses it)");
    }
    network->to(device, type);
    return network;
}

template <typename Network> Network networkOf(const TrainingJob &built)
{
    auto network = std::dynamic_pointer_cast<typename Network::ContainedType>(built.network);
    if (!network)
        throw std::logic_error("the job's network is not the one its family builds");
    return Network(std::move(network));
}

// Draws job's batch for built's network and the loss on it; the network's
// parameters are drawn before the batch, so that a seeded build is reproducible.
void attachBatch(TrainingJob &built, const JobConfiguration &job, const torch::Device &device)
{
    const auto floats = torch::TensorOptions().dtype(JobBuilder::scalarType(job.dtype)).device(device);
    const auto labels = torch::TensorOptions().dtype(torch::kInt64).device(device);
    const int64_t batch = job.batchSize;
    switch (job.family) {
    case JobFamily::Mlp: {
        const torch::Tensor input = torch::randn({batch, job.inputFeatures}, floats); // [batch, features]
        built = classifierJob(networkOf<nn::Sequential>(built), input, job.classes, labels);
        break;
    }
    case JobFamily::Cnn: {
        const torch::Tensor input =
            torch::randn({batch, job.inputChannels, job.resolution, job.resolution}, floats); // [batch, C, H, W]
        built = classifierJob(networkOf<nn::Sequential>(built), input, job.classes, labels);
        break;
    }
    case JobFamily::Transformer: {
        TransformerJob network = networkOf<TransformerJob>(built);
        const torch::Tensor tokens = torch::randint(job.vocabulary, {job.sequenceLength, batch}, labels);  // [S, B]
        const torch::Tensor target = torch::randint(job.vocabulary, {job.sequenceLength * batch}, labels); // [S*B]
        const int64_t vocabulary = job.vocabulary;
        built.batch = {tokens, target};
        built.loss = [network, tokens, target, vocabulary]() mutable {
            return torch::cross_entropy_loss(network->forward(tokens).reshape({-1, vocabulary}), target);
        };
        break;
    }
    case JobFamily::Llm: throw std::logic_error("an llm job is estimated, never built (checkShapes refuses it)");
    }
    built.network->train();
}

} // namespace

std::optional<torch::ScalarType> JobBuilder::findScalarType(const std::string &dtype)
{
    static const std::pair<const char *, torch::ScalarType> types[] = {{"float32", torch::kFloat32},
                                                                       {"float64", torch::kFloat64},
                                                                       {"float16", torch::kFloat16},
                                                                       {"bfloat16", torch::kBFloat16}};
    for (const auto &[name, type] : types)
        if (dtype == name)
            return type;
    return std::nullopt;
}

torch::ScalarType JobBuilder::scalarType(const std::string &dtype)
{
    if (const auto type = findScalarType(dtype))
        return *type;
    throw io::InputError("unknown dtype " + io::quoteForMessage(dtype));
}

TrainingJob JobBuilder::build(const JobConfiguration &job, const torch::Device &device)
{
    checkShapes(job);
    TrainingJob built;
    built.network = buildNetwork(job, device);
    attachBatch(built, job, device);
    return built;
}

void JobBuilder::resize(TrainingJob &built, const JobConfiguration &job, const torch::Device &device)
{
    checkShapes(job);
    built.batch.clear();
    built.loss = nullptr;
    for (torch::Tensor &parameter : built.network->parameters())
        parameter.mutable_grad().reset();
    if (job.family == JobFamily::Transformer)
        networkOf<TransformerJob>(built)->setSequenceLength(job.sequenceLength);
    attachBatch(built, job, device);
}

std::unique_ptr<torch::optim::Optimizer> JobBuilder::optimizer(const JobConfiguration &job, torch::nn::Module &network)
{
    const auto parameters = network.parameters();
    if (job.optimizer == "sgd")
        return std::make_unique<torch::optim::SGD>(parameters, torch::optim::SGDOptions(0.01));
    if (job.optimizer == "sgd_momentum")
        return std::make_unique<torch::optim::SGD>(parameters, torch::optim::SGDOptions(0.01).momentum(0.9));
    if (job.optimizer == "adam")
        return std::make_unique<torch::optim::Adam>(parameters, torch::optim::AdamOptions(1e-3));
    if (job.optimizer == "adamw")
        return std::make_unique<torch::optim::AdamW>(parameters, torch::optim::AdamWOptions(1e-3));
    throw io::InputError("unknown optimizer " + io::quoteForMessage(job.optimizer));
}

} // namespace gpumem::probe
