// SPDX-License-Identifier: GPL-3.0-or-later
// The neural regressor's part of its model folder, which RegressorBase::save()
// and restore() write and read around fittedState() and readFitted():
//   model.json            as every model's, with "fitted": scalers, layer vocabulary, target
//                         transform, network sizes, training summary
//   weights.safetensors   every parameter and buffer of the network, float32, by its module path
//   optimizer.safetensors the optimizer's state (Adam/AdamW moments and step counts, by parameter)
//                         and, as its metadata, the trainer's position: what `gpumem train
//                         --resume-from` continues
//   weights-M.safetensors, optimizer-M.safetensors
//                         the same for member M (1 … members - 1) of an ensemble; the
//                         files above are member 0's
// Loading executes nothing from the folder: the weights file is data only, and
// every tensor's name, dtype and shape must match the network that model.json
// describes before a single value is copied.
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkImpl.h"

#include "models/ModelFolder.h"
#include "models/NetworkFittedState.h"

#include "io/InputError.h"
#include "io/NumberText.h"
#include "io/SafeTensors.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace gpumem::models {

namespace {

constexpr const char *optimizerFile = "optimizer.safetensors";
constexpr const char *optimizerFormat = "gpumem-optimizer-state";

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

// Checks the counts and hyperparameters model.json gives against the weights file
// before a network of that size is built, so that an edited model.json cannot make
// loading allocate an embedding table of millions of rows or gigabytes of layers.
void checkSizesAgainstWeights(const io::SafeTensorsFile &weights, const NetworkFittedState &state,
                              const BiGruTransformerOptions &options, const std::string &path)
{
    const std::int64_t dModel = options.dModel;
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
    // The parser checked every tensor's bytes against the file, so the sum is bounded by its size.
    std::int64_t stored = 0;
    for (const io::TensorRecord &tensor : weights.tensors())
        stored += tensor.elementCount();
    // Building the network costs its size in memory, so it is built only when it is at
    // most twice the weights that would fill it; the exact comparison, tensor by tensor,
    // follows (loadWeights) and names the first difference of a folder that is close.
    const std::int64_t described = options.parameterCount();
    if (described > 2 * stored)
        throw io::InputError(path, 0, 0,
                             "holds " + std::to_string(stored) + " weights, but the network model.json describes has " +
                                 std::to_string(described));
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

void writeBytes(const std::string &bytes, const std::string &path, const char *what)
{
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out)
        throw io::InputError(std::string("cannot write ") + what + " (disk full?): " + std::strerror(errno));
}

// Numbers in the metadata are text: %.17g reads back as the same double.
std::string numberText(double value)
{
    return io::formattedNumber("%.17g", value);
}

// The file of member (0-based) named after stem: "weights" gives weights.safetensors
// for member 0 and weights-M.safetensors for member M.
std::string memberFile(const std::string &stem, std::size_t member)
{
    return stem + (member == 0 ? std::string() : "-" + std::to_string(member)) + ".safetensors";
}

void writeOptimizerState(const NeuralNetworkRegressor::Impl &impl, const training::TrainingCheckpoint &checkpoint,
                         const std::string &optimizer, const std::string &path)
{
    std::vector<torch::Tensor> contiguous;
    std::vector<io::TensorView> views;
    for (const auto &[name, tensor] : checkpoint.optimizerState) {
        const bool count = tensor.scalar_type() == torch::kInt64;
        contiguous.push_back(tensor.detach().to(torch::kCPU, count ? torch::kInt64 : torch::kFloat32).contiguous());
        views.push_back({name, count ? "I64" : "F32", contiguous.back().sizes().vec(), contiguous.back().data_ptr()});
    }
    const std::map<std::string, std::string> metadata{
        {"format", optimizerFormat},
        {"optimizer", optimizer},
        {"epochs_done", std::to_string(checkpoint.epochsDone)},
        {"step", std::to_string(checkpoint.step)},
        {"best_loss", numberText(checkpoint.bestLoss)},
        {"epochs_without_improvement", std::to_string(checkpoint.epochsWithoutImprovement)},
        {"plateau_factor", numberText(checkpoint.schedule.plateauFactor)},
        {"plateau_best_loss", numberText(checkpoint.schedule.bestLoss)},
        {"plateau_epochs_without_improvement", std::to_string(checkpoint.schedule.epochsWithoutImprovement)},
        {"training_rows", std::to_string(impl.checkpointRows)},
        {"training_rows_sha256", impl.checkpointRowsDigest},
    };
    writeBytes(io::serializeSafeTensors(views, metadata), path, "the optimizer state");
}

// Reads the metadata entry key of the optimizer file as a number in [minimum, maximum].
template <typename Number>
Number metadataNumber(const io::SafeTensorsFile &file, const std::string &key, Number minimum, Number maximum,
                      const std::string &path)
{
    const auto it = file.metadata().find(key);
    Number value{};
    const bool found = it != file.metadata().end();
    const std::string text = found ? it->second : std::string();
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!found || text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size() ||
        !(value >= minimum && value <= maximum))
        throw io::InputError(path, 0, 0,
                             "metadata '" + key + "' " +
                                 (found ? "is " + io::quoteForMessage(text) + ", not a number from " +
                                              numberText(static_cast<double>(minimum)) + " to " +
                                              numberText(static_cast<double>(maximum))
                                        : std::string("is missing")));
    return value;
}

// A saved training's checkpoint and the training rows it used, by count and digest.
struct SavedTraining
{
    training::TrainingCheckpoint checkpoint;
    std::size_t rows = 0;
    std::string rowsDigest;
};

// Reads the optimizer state that belongs to network as hostile input: the
// position within bounds, and for every parameter either no state or exactly its
// fields, each of the right dtype and shape and finite; nothing else.
SavedTraining readOptimizerState(const BiGruTransformer &network, const std::string &optimizer,
                                 const io::SafeTensorsFile &file, const std::string &path)
{
    const auto text = [&](const std::string &key) {
        const auto it = file.metadata().find(key);
        return it == file.metadata().end() ? std::string() : it->second;
    };
    if (text("format") != optimizerFormat)
        throw io::InputError(path, 0, 0, std::string("is not a ") + optimizerFormat + " file");
    if (text("optimizer") != optimizer)
        throw io::InputError(path, 0, 0,
                             "holds the state of optimizer " + io::quoteForMessage(text("optimizer")) +
                                 ", but model.json trains with " + optimizer);
    constexpr int maxEpochs = 100000;
    training::TrainingCheckpoint checkpoint;
    checkpoint.epochsDone = metadataNumber<int>(file, "epochs_done", 1, maxEpochs, path);
    checkpoint.step = metadataNumber<std::int64_t>(file, "step", 1, mostOptimizerSteps, path);
    const double largest = std::numeric_limits<double>::max();
    checkpoint.bestLoss = metadataNumber<double>(file, "best_loss", 0.0, largest, path);
    checkpoint.epochsWithoutImprovement = metadataNumber<int>(file, "epochs_without_improvement", 0, maxEpochs, path);
    checkpoint.schedule.plateauFactor = metadataNumber<double>(file, "plateau_factor", 0.0, 1.0, path);
    checkpoint.schedule.bestLoss = metadataNumber<double>(file, "plateau_best_loss", -1.0, largest, path);
    checkpoint.schedule.epochsWithoutImprovement =
        metadataNumber<int>(file, "plateau_epochs_without_improvement", 0, maxEpochs, path);
    const auto rows = metadataNumber<std::uint64_t>(file, "training_rows", 2, std::uint64_t{1} << 40, path);
    const std::string digest = text("training_rows_sha256");
    if (digest.size() != 64 || digest.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw io::InputError(path, 0, 0, "metadata 'training_rows_sha256' is not a SHA-256 in hexadecimal");

    std::set<std::string> expected;
    for (const auto &item : network->named_parameters(true)) {
        const std::vector<std::int64_t> shape = item.value().sizes().vec();
        std::size_t present = 0;
        for (const auto &field : training::optimizerStateFields(optimizer))
            present += file.find(item.key() + "." + field.name) != nullptr;
        if (present == 0)
            continue; // the parameter had not taken a step
        for (const auto &field : training::optimizerStateFields(optimizer)) {
            const std::string name = item.key() + "." + field.name;
            expected.insert(name);
            const io::TensorRecord *record = file.find(name);
            if (!record)
                throw io::InputError(path, 0, 0, "lacks the tensor '" + name + "'");
            const std::vector<std::int64_t> wanted = field.parameterShaped ? shape : std::vector<std::int64_t>{};
            if (record->dtype != field.dtype || record->shape != wanted)
                throw io::InputError(path, 0, 0,
                                     "tensor '" + name + "' is " + record->dtype + " " + shapeText(record->shape) +
                                         ", not " + field.dtype + " " + shapeText(wanted));
            const bool count = std::string(field.dtype) == "I64";
            const torch::Tensor stored = torch::from_blob(const_cast<char *>(file.data(*record)), record->shape,
                                                          count ? torch::kInt64 : torch::kFloat32)
                                             .clone();
            const bool sound = count
                                   ? stored.item<std::int64_t>() >= 1 && stored.item<std::int64_t>() <= checkpoint.step
                                   : torch::isfinite(stored).all().item<bool>() &&
                                         (std::string(field.name) != "exp_avg_sq" || (stored >= 0).all().item<bool>());
            if (!sound)
                throw io::InputError(path, 0, 0, "tensor '" + name + "' holds a value no training produces");
            checkpoint.optimizerState.emplace_back(name, stored);
        }
    }
    for (const io::TensorRecord &record : file.tensors())
        if (!expected.count(record.name))
            throw io::InputError(path, 0, 0, "holds a tensor '" + record.name + "' that the network does not have");
    return {std::move(checkpoint), static_cast<std::size_t>(rows), digest};
}

// Refuses a file the "files" list records that looks like a member's weights or
// optimizer state but belongs to none of the members model.json counts.
void refuseStrayMemberFiles(const io::Json &metadata, const std::string &directory, std::size_t members, bool optimizer)
{
    std::set<std::string> expected;
    for (std::size_t member = 0; member < members; ++member) {
        expected.insert(memberFile("weights", member));
        if (optimizer)
            expected.insert(memberFile("optimizer", member));
    }
    for (const auto &item : io::toObject(io::member(metadata, "files")).items()) {
        const std::string &name = item.key();
        const bool memberLike = (name.rfind("weights", 0) == 0 || name.rfind("optimizer", 0) == 0) &&
                                name.size() > 12 && name.compare(name.size() - 12, 12, ".safetensors") == 0;
        if (memberLike && !expected.count(name))
            throw io::InputError(directory + "/" + name, 0, 0,
                                 "belongs to none of the " + std::to_string(members) +
                                     " networks that model.json counts" +
                                     (optimizer ? std::string() : " (the folder holds no optimizer.safetensors)"));
    }
}

} // namespace

io::Json NeuralNetworkRegressor::fittedState(const std::string &folder) const
{
    const Impl &impl = *mImpl;
    const bool continuable = impl.holdsTraining();
    for (std::size_t m = 0; m < impl.members.size(); ++m) {
        writeWeights(impl.members[m].network, folder + "/" + memberFile("weights", m));
        if (continuable)
            writeOptimizerState(impl, impl.members[m].checkpoint, hyperparameters().choice("optimizer"),
                                folder + "/" + memberFile("optimizer", m));
    }
    NetworkFittedState state;
    state.featureScaler = impl.featureScaler;
    state.fieldScaler = impl.fieldScaler;
    state.layerVocabulary = impl.layerVocabulary;
    state.targetTransform = impl.targetTransform;
    state.featureCount = impl.options.featureCount;
    state.simulatedPeakInput = impl.simulatedPeakInput;
    state.layerTypeCount = impl.options.layerTypeCount;
    state.fieldsPerLayer = impl.options.fieldsPerLayer;
    state.members = static_cast<std::int64_t>(impl.members.size());
    io::Json fitted = state;
    const training::TrainingResult &training = impl.lastTraining;
    fitted["training"] = {{"stop_reason", training::stopReasonName(training.stopReason)},
                          {"epochs_run", training.epochs.size()},
                          {"best_epoch", training.bestEpoch},
                          {"seconds", training.seconds},
                          {"device", impl.device.str()}};
    return fitted;
}

void NeuralNetworkRegressor::readFitted(const io::Json &fitted, const io::Json &metadata, const std::string &directory)
{
    Impl &impl = *mImpl;
    impl.members.clear();
    impl.encoder = data::FeatureEncoder(schema().encoding);
    NetworkFittedState state = NetworkFittedState::read(fitted, impl.encoder.featureNames().size());
    impl.simulatedPeakInput = state.simulatedPeakInput;
    // Fewer networks than the hyperparameter asks for are what a cancelled training keeps; more, none makes.
    if (state.members > hyperparameters().integer("ensemble"))
        throw io::InputError("\"members\" is " + std::to_string(state.members) +
                             ", but the hyperparameter ensemble is " +
                             std::to_string(hyperparameters().integer("ensemble")));
    const auto memberCount = static_cast<std::size_t>(state.members);
    // A folder without the optimizer files (saved before training could be continued) still predicts.
    const bool optimizer = std::filesystem::exists(directory + "/" + optimizerFile);
    refuseStrayMemberFiles(metadata, directory, memberCount, optimizer);
    impl.featureScaler = std::move(state.featureScaler);
    impl.fieldScaler = std::move(state.fieldScaler);
    impl.layerVocabulary = std::move(state.layerVocabulary);
    impl.targetTransform = state.targetTransform;
    impl.options = networkOptions(hyperparameters(), state.featureCount, state.layerTypeCount, state.fieldsPerLayer);
    impl.options.featureTokenOf = featureTokensOf(schema().encoding, state.simulatedPeakInput,
                                                  hyperparameters().choice("feature_tokens"), state.featureCount);

    std::vector<NetworkMember> members(memberCount);
    for (std::size_t m = 0; m < memberCount; ++m) {
        const std::string weightsFile = memberFile("weights", m);
        const std::string weightsPath = directory + "/" + weightsFile;
        const io::SafeTensorsFile weights =
            io::SafeTensorsFile::parse(readRecordedFile(metadata, directory, weightsFile), weightsPath);
        checkSizesAgainstWeights(weights, state, impl.options, weightsPath);
        members[m].network = BiGruTransformer(impl.options);
        loadWeights(members[m].network, weights, weightsPath);
        if (optimizer) {
            const std::string optimizerName = memberFile("optimizer", m);
            const std::string optimizerPath = directory + "/" + optimizerName;
            SavedTraining saved = readOptimizerState(
                members[m].network, hyperparameters().choice("optimizer"),
                io::SafeTensorsFile::parse(readRecordedFile(metadata, directory, optimizerName), optimizerPath),
                optimizerPath);
            // The members trained on the same rows; a file from another training is refused.
            if (m > 0 && (saved.rows != impl.checkpointRows || saved.rowsDigest != impl.checkpointRowsDigest))
                throw io::InputError(optimizerPath, 0, 0,
                                     "was trained on other rows than " + std::string(optimizerFile));
            members[m].checkpoint = std::move(saved.checkpoint);
            impl.checkpointRows = saved.rows;
            impl.checkpointRowsDigest = std::move(saved.rowsDigest);
        }
        members[m].network->to(impl.device);
    }
    impl.members = std::move(members);
    impl.snapshotForCpu();
}

NeuralNetworkRegressor NeuralNetworkRegressor::load(const std::string &directory, ComputeSettings compute)
{
    const io::Json metadata = readModelMetadata(directory);
    Hyperparameters hyperparameters = neuralNetworkHyperparameters();
    // Folders saved before feature_tokens existed gave every column its own token,
    // and those saved before ensembles existed hold one network.
    hyperparameters.set("feature_tokens", std::string("per_column"));
    hyperparameters.set("ensemble", std::int64_t{1});
    NeuralNetworkRegressor model(std::move(hyperparameters), std::move(compute));
    model.restore(metadata, directory);
    return model;
}

} // namespace gpumem::models
