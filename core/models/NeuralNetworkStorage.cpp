// Saving and loading the neural regressor as a model folder:
//   model.json            hyperparameters, schema, scalers, target transform, training summary,
//                         the digest of weights.safetensors, library versions
//   weights.safetensors   every parameter and buffer of the network, float32, by its module path
// Loading executes nothing from the folder: the weights file is data only, and
// every tensor's name, dtype and shape must match the network that model.json
// describes before a single value is copied.
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkImpl.h"

#include "models/ModelFolder.h"
#include "models/NetworkFittedState.h"

#include "io/InputError.h"
#include "io/SafeTensors.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>

namespace gpumem::models {

namespace {

constexpr const char *modelName = "bigru_transformer";

// Every tensor the network's state holds, by its module path ("encoder.0.expand.weight").
std::vector<std::pair<std::string, torch::Tensor>> stateTensors(const BiGruTransformer &network)
{
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    for (const auto &item : network->named_parameters(true))
        tensors.emplace_back(item.key(), item.value());
    for (const auto &item : network->named_buffers(true))
        tensors.emplace_back(item.key(), item.value());
    return tensors;
}

std::string shapeText(const std::vector<std::int64_t> &shape)
{
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

void writeWeights(const BiGruTransformer &network, const std::string &path)
{
    std::vector<torch::Tensor> contiguous; // keeps the CPU copies alive while the views point at them
    std::vector<io::TensorView> views;
    for (const auto &[name, tensor] : stateTensors(network)) {
        contiguous.push_back(tensor.detach().to(torch::kCPU, torch::kFloat32).contiguous());
        if (!torch::isfinite(contiguous.back()).all().item<bool>())
            throw io::InputError("the network's weight '" + name +
                                 "' holds a non-finite value; the model was not saved");
        views.push_back({name, "F32", contiguous.back().sizes().vec(), contiguous.back().data_ptr()});
    }
    std::ofstream out(path, std::ios::binary);
    const std::string bytes = io::serializeSafeTensors(views, {{"format", "gpumem-bigru-transformer"}});
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out)
        throw io::InputError(std::string("cannot write the weights (disk full?): ") + std::strerror(errno));
}

// Checks the counts model.json gives against the weights file before a network of
// that size is built, so that an edited model.json cannot make loading allocate
// an embedding table of millions of rows.
void checkSizesAgainstWeights(const io::SafeTensorsFile &weights, const NetworkFittedState &state, std::int64_t dModel,
                              const std::string &path)
{
    const auto expect = [&](const std::string &name, const std::vector<std::int64_t> &shape) {
        const io::TensorRecord *tensor = weights.find(name);
        if (!tensor || tensor->shape != shape)
            throw io::InputError(path, 0, 0,
                                 "tensor '" + name + "' " +
                                     (tensor ? "has shape " + shapeText(tensor->shape) : std::string("is missing")) +
                                     ", but model.json describes " + shapeText(shape));
    };
    expect("feature_weight", {state.featureCount, dModel});
    if (state.layerTypeCount > 0)
        expect("layer_type_embedding.weight", {state.layerTypeCount, dModel});
}

void loadWeights(BiGruTransformer &network, const io::SafeTensorsFile &weights, const std::string &path)
{
    std::set<std::string> expected;
    torch::NoGradGuard noGrad;
    for (auto &[name, tensor] : stateTensors(network)) {
        expected.insert(name);
        const io::TensorRecord *record = weights.find(name);
        if (!record)
            throw io::InputError(path, 0, 0, "lacks the tensor '" + name + "' that the network needs");
        if (record->dtype != "F32")
            throw io::InputError(path, 0, 0, "tensor '" + name + "' is " + record->dtype + ", not F32");
        if (record->shape != tensor.sizes().vec())
            throw io::InputError(path, 0, 0,
                                 "tensor '" + name + "' has shape " + shapeText(record->shape) + ", but the network " +
                                     "model.json describes needs " + shapeText(tensor.sizes().vec()));
        const torch::Tensor stored =
            torch::from_blob(const_cast<char *>(weights.data(*record)), record->shape, torch::kFloat32);
        if (!torch::isfinite(stored).all().item<bool>())
            throw io::InputError(path, 0, 0, "tensor '" + name + "' holds a non-finite value");
        tensor.copy_(stored);
    }
    for (const io::TensorRecord &record : weights.tensors())
        if (!expected.count(record.name))
            throw io::InputError(path, 0, 0, "holds a tensor '" + record.name + "' that the network does not have");
}

} // namespace

void NeuralNetworkRegressor::save(const std::string &directory) const
{
    const Impl &impl = *mImpl;
    if (!impl.network)
        throw io::InputError("the model has not been trained");
    NetworkFittedState state;
    state.featureScaler = impl.featureScaler;
    state.fieldScaler = impl.fieldScaler;
    state.layerVocabulary = impl.layerVocabulary;
    state.targetTransform = impl.targetTransform;
    state.featureCount = impl.options.featureCount;
    state.layerTypeCount = impl.options.layerTypeCount;
    state.fieldsPerLayer = impl.options.fieldsPerLayer;

    writeModelFolder(directory, modelName, impl.hyperparameters, impl.compute.seed, impl.schema,
                     [&](io::JsonWriter &json, const std::string &folder) {
                         writeWeights(impl.network, folder + "/" + NetworkFittedState::weightsFile);
                         json.beginObject();
                         state.write(json);
                         const training::TrainingResult &training = impl.lastTraining;
                         json.key("training").beginObject();
                         json.key("stop_reason").value(training::stopReasonName(training.stopReason));
                         json.key("epochs_run").value(training.epochs.size());
                         json.key("best_epoch").value(training.bestEpoch);
                         json.key("seconds").value(training.seconds);
                         json.key("device").value(impl.device.str());
                         json.endObject();
                         json.endObject();
                     });
}

NeuralNetworkRegressor NeuralNetworkRegressor::load(const std::string &directory, ComputeSettings compute)
{
    const io::JsonValue metadata = readModelMetadata(directory);
    if (modelNameOf(metadata) != modelName)
        throw io::InputError(directory + "/model.json", 0, 0,
                             "the folder holds a '" + modelNameOf(metadata) + "' model, not " + modelName);
    auto impl = std::make_unique<Impl>(neuralNetworkHyperparameters(), compute);
    // Folders saved before feature_tokens existed gave every column its own token.
    impl->hyperparameters.set("feature_tokens", std::string("per_column"));
    readModelFolder(
        metadata, directory, impl->hyperparameters, impl->compute.seed, impl->schema, [&](const io::JsonValue &fitted) {
            impl->encoder = data::FeatureEncoder(impl->schema.encoding);
            NetworkFittedState state = NetworkFittedState::read(fitted, impl->encoder.featureNames().size());
            impl->featureScaler = std::move(state.featureScaler);
            impl->fieldScaler = std::move(state.fieldScaler);
            impl->layerVocabulary = std::move(state.layerVocabulary);
            impl->targetTransform = state.targetTransform;
            impl->options = impl->optionsFor(state.featureCount, state.layerTypeCount, state.fieldsPerLayer);
            impl->options.featureTokenOf = featureTokensOf(
                impl->schema.encoding, impl->hyperparameters.choice("feature_tokens"), state.featureCount);

            const std::string weightsPath = directory + "/" + NetworkFittedState::weightsFile;
            const io::SafeTensorsFile weights = io::SafeTensorsFile::parse(
                readRecordedFile(metadata, directory, NetworkFittedState::weightsFile), weightsPath);
            checkSizesAgainstWeights(weights, state, impl->options.dModel, weightsPath);
            impl->network = BiGruTransformer(impl->options);
            loadWeights(impl->network, weights, weightsPath);
        });
    impl->network->to(impl->device);
    impl->snapshotForCpu();
    return NeuralNetworkRegressor(std::move(impl));
}

} // namespace gpumem::models
