// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkImpl.h"

#include "data/SeededRandom.h"
#include "io/InputError.h"
#include "io/NumberText.h"
#include "models/ArchitectureSizes.h"
#include "models/EpochTurns.h"
#include "models/NetworkEnsemble.h"
#include "models/SimulatedPeakInput.h"
#include "runtime/HeapRetention.h"
#include "runtime/ParallelFor.h"
#include "training/KernelThreads.h"
#include "training/Trainer.h"

#include <torch/cuda.h>
#include <torch/version.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

namespace gpumem::models {

namespace {

// Rows predicted per forward pass: large enough to amortise the call, small enough for any device.
constexpr std::size_t predictionChunk = 1024;

torch::Tensor toTensor(const ScaledInputs::Matrix &rows)
{
    return torch::from_blob(const_cast<float *>(rows.data()), {rows.rows(), rows.cols()}, torch::kFloat32).clone();
}

torch::Tensor toTensor(const Eigen::VectorXd &vector)
{
    const Eigen::VectorXf values = vector.cast<float>();
    return torch::from_blob(const_cast<float *>(values.data()), {values.size()}, torch::kFloat32).clone();
}

torch::Tensor rowIndex(const std::vector<Eigen::Index> &rows)
{
    std::vector<std::int64_t> indices(rows.begin(), rows.end());
    return torch::tensor(indices, torch::kInt64);
}

// The numeric fields of every layer of the column: [total layers, fieldsPerLayer].
Eigen::MatrixXd layerFieldMatrix(const data::SequenceColumn &sequence, int fieldsPerLayer)
{
    Eigen::MatrixXd fields(static_cast<Eigen::Index>(sequence.totalLayers()), fieldsPerLayer);
    for (std::size_t layer = 0; layer < sequence.totalLayers(); ++layer)
        for (int field = 0; field < fieldsPerLayer; ++field)
            fields(static_cast<Eigen::Index>(layer), field) = sequence.field(layer, field);
    return fields;
}

// Throws io::InputError, before anything trains, when scaler (fitted on rows of
// values) holds statistics that a saved model may not keep, so that no folder is
// written that loading refuses; nameOf names an encoded column.
void checkKeepable(const data::Standardizer &scaler, const Eigen::MatrixXd &values,
                   const std::vector<Eigen::Index> &rows, const std::function<std::string(Eigen::Index)> &nameOf,
                   const std::string &source)
{
    const Eigen::Index column = scaler.firstUnkeepableColumn();
    if (column < 0)
        return;
    double largest = 0.0;
    for (Eigen::Index row : rows)
        largest = std::max(largest, std::fabs(values(row, column)));
    throw io::InputError(source, 0, 0,
                         nameOf(column) + " reaches " + io::formattedNumber("%g", largest) +
                             ", and the network standardises each input with a mean and a deviation of at most " +
                             io::formattedNumber("%g", data::maxScalingMagnitude) +
                             "; rescale the column or leave it out with " + io::parameter("ignored"));
}

// Returns encoded with column as one more column after its own.
Eigen::MatrixXd withColumn(Eigen::MatrixXd encoded, const Eigen::VectorXd &column)
{
    encoded.conservativeResize(Eigen::NoChange, encoded.cols() + 1);
    encoded.col(encoded.cols() - 1) = column;
    return encoded;
}

std::string shape(std::initializer_list<std::string> sizes)
{
    std::string text = "[";
    for (const auto &size : sizes)
        text += (text.size() > 1 ? ", " : "") + size;
    return text + "]";
}

std::vector<ArchitectureBlock> describeOptions(const BiGruTransformerOptions &options, std::int64_t typicalLayers,
                                               bool simulatedPeakInput = false)
{
    torch::NoGradGuard noGradients;
    BiGruTransformer network(options);
    std::map<std::string, std::int64_t> parameters;
    for (const auto &item : network->named_parameters()) {
        const std::string &name = item.key();
        std::string block = "head";
        if (name.rfind("feature_", 0) == 0 || name.rfind("class_token", 0) == 0)
            block = "features";
        else if (name.rfind("layer_", 0) == 0)
            block = "layers";
        else if (name.rfind("gru", 0) == 0)
            block = "gru";
        else if (name.rfind("encoder", 0) == 0)
            block = "encoder";
        else if (name.rfind("final_norm", 0) == 0 || name.rfind("attention_score", 0) == 0)
            block = "pooling";
        parameters[block] += item.value().numel();
    }
    const std::string d = std::to_string(options.dModel);
    const std::int64_t fixed = options.featureTokens() + (options.pooling == "cls" ? 1 : 0);
    const std::string tokens = options.usesLayerTokens() ? std::to_string(fixed) + "+layers" : std::to_string(fixed);

    std::vector<ArchitectureBlock> blocks;
    blocks.push_back({"Feature tokens",
                      std::to_string(options.featureCount) + " features × (value·w + b)" +
                          (options.featureTokens() != options.featureCount
                               ? " in " + std::to_string(options.featureTokens()) + " tokens"
                               : std::string()) +
                          (simulatedPeakInput ? ", the last the simulated allocator peak" : "") +
                          (options.pooling == "cls" ? " + class token" : ""),
                      shape({"batch", std::to_string(fixed), d}), parameters["features"]});
    if (options.usesLayerTokens())
        blocks.push_back({"Layer tokens",
                          std::to_string(options.layerTypeCount - 1) + " layer types + " +
                              std::to_string(options.fieldsPerLayer) + " fields, sinusoidal positions",
                          shape({"batch", "layers (e.g. " + std::to_string(typicalLayers) + ")", d}),
                          parameters["layers"]});
    const ArchitectureBlock gru{"BiGRU",
                                "2 directions × " + std::to_string(options.gruHidden) + " hidden, " +
                                    std::to_string(options.gruLayers) + " layer(s), projected to " + d,
                                shape({"batch", tokens, d}), parameters["gru"]};
    const ArchitectureBlock encoder{
        "Transformer encoder",
        std::to_string(options.encoderLayers) + " layers, " + std::to_string(options.heads) + " heads, feed-forward " +
            std::to_string(options.feedforward) + ", " + (options.preNorm ? "pre" : "post") + "-norm",
        shape({"batch", tokens, d}), parameters["encoder"]};
    const std::string &architecture = options.architecture;
    if (architecture == "bigru_transformer" || architecture == "bigru_only")
        blocks.push_back(gru);
    if (architecture != "bigru_only")
        blocks.push_back(encoder);
    if (architecture == "transformer_bigru")
        blocks.push_back(gru);
    blocks.push_back({"Pooling", options.pooling + " over tokens", shape({"batch", d}), parameters["pooling"]});
    blocks.push_back(
        {"Head", d + " → " + std::to_string(options.headHidden) + " → 1 (GELU)", shape({"batch"}), parameters["head"]});
    return blocks;
}

} // namespace

std::vector<std::int64_t> featureTokensOf(const data::FeatureEncoding &encoding, bool simulatedPeakInput,
                                          const std::string &mode, std::int64_t featureCount)
{
    if (mode != "grouped")
        return {};
    std::vector<std::int64_t> tokenOf;
    std::int64_t token = 0;
    for (std::size_t i = 0; i < encoding.numericColumns.size(); ++i)
        tokenOf.push_back(token++);
    for (const auto &categorical : encoding.categoricals) {
        if (categorical.categories.empty())
            continue;
        tokenOf.insert(tokenOf.end(), categorical.categories.size(), token++);
    }
    if (!encoding.sequenceColumn.empty()) {
        tokenOf.insert(tokenOf.end(), 1 + encoding.layerTypes.size(), token++);
        if (encoding.fieldsPerLayer > 0)
            tokenOf.insert(tokenOf.end(), 2 * static_cast<std::size_t>(encoding.fieldsPerLayer), token++);
        if (!encoding.batchColumn.empty())
            tokenOf.insert(tokenOf.end(), 2, token++); // the activations times the batch size
    }
    if (simulatedPeakInput)
        tokenOf.push_back(token++);
    if (static_cast<std::int64_t>(tokenOf.size()) != featureCount || tokenOf.empty())
        return {};
    return tokenOf;
}

torch::Device resolveDevice(const std::string &setting)
{
    if (setting == "cpu")
        return torch::kCPU;
    const bool cuda = torch::cuda::is_available();
    if (setting == "cuda") {
        if (!cuda)
            throw io::InputError(io::parameter("device") + " cuda: LibTorch " TORCH_VERSION
                                                           " sees no CUDA device here");
        return {torch::kCUDA, 0};
    }
    if (setting == "auto")
        return cuda ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
    throw io::InputError(io::parameter("device") + " takes auto, cpu or cuda, not " + io::quoteForMessage(setting));
}

NeuralNetworkRegressor::Impl::Impl(const Hyperparameters &hyperparameters, const ComputeSettings &compute)
    : device(resolveDevice(compute.device))
    , targetTransform(hyperparameters.boolean("log_target"))
{
}

BiGruTransformerOptions networkOptions(const Hyperparameters &hyperparameters, std::int64_t featureCount,
                                       std::int64_t layerTypeCount, std::int64_t fieldsPerLayer)
{
    const Hyperparameters &h = hyperparameters;
    BiGruTransformerOptions result;
    result.architecture = h.choice("architecture");
    result.featureCount = featureCount;
    result.layerTypeCount = layerTypeCount;
    result.fieldsPerLayer = fieldsPerLayer;
    result.dModel = h.integer("d_model");
    result.gruHidden = h.integer("gru_hidden");
    result.gruLayers = h.integer("gru_layers");
    result.gruDropout = h.real("gru_dropout");
    result.heads = h.integer("heads");
    result.encoderLayers = h.integer("encoder_layers");
    result.feedforward = h.integer("feedforward");
    result.dropout = h.real("dropout");
    result.preNorm = h.choice("norm") == "pre";
    result.pooling = h.choice("pooling");
    result.headHidden = h.integer("head_hidden");
    if (result.dModel % result.heads != 0)
        throw io::InputError("hyperparameters: heads (" + std::to_string(result.heads) + ") must divide d_model (" +
                             std::to_string(result.dModel) + ")");
    if (result.dModel % 2 != 0)
        throw io::InputError("hyperparameters: d_model must be even");
    return result;
}

void NeuralNetworkRegressor::Impl::snapshotForCpu()
{
    for (NetworkMember &member : members) {
        member.network->eval();
        member.cpuNetwork = std::make_shared<const EigenNetwork>(*member.network);
    }
}

bool NeuralNetworkRegressor::Impl::holdsTraining() const
{
    return !members.empty() && std::all_of(members.begin(), members.end(), [](const NetworkMember &member) {
        return member.checkpoint.holdsTraining();
    });
}

Eigen::MatrixXd NeuralNetworkRegressor::Impl::encode(const data::Dataset &dataset) const
{
    if (!simulatedPeakInput)
        return encoder.transform(dataset);
    const std::optional<Eigen::VectorXd> peaks = simulatedPeakMebibytes(dataset);
    if (!peaks)
        throw io::InputError("the network takes each job's simulated allocator peak as an input, and " +
                             dataset.source() + " does not describe its jobs layer by layer (a layer sequence '" +
                             encoder.encoding().sequenceColumn + "' and a batch size column)");
    return withColumn(encoder.transform(dataset), *peaks);
}

ScaledInputs NeuralNetworkRegressor::Impl::scale(const data::Dataset &dataset, const Eigen::MatrixXd &encoded) const
{
    ScaledInputs inputs;
    inputs.features = featureScaler.transform(encoded).cast<float>();
    if (!usesLayerTokens())
        return inputs;
    // Every row that trains or is predicted comes through here.
    checkLayerTokens(dataset);
    const data::SequenceColumn &sequence = dataset.sequence();
    std::unordered_map<std::string, std::int64_t> vocabulary;
    for (std::size_t i = 0; i < layerVocabulary.size(); ++i)
        vocabulary.emplace(layerVocabulary[i], static_cast<std::int64_t>(i + 1));
    std::vector<std::int64_t> typeIndex; // dataset layer-type id → embedding row
    for (const auto &type : sequence.layerTypes()) {
        const auto it = vocabulary.find(type);
        typeIndex.push_back(it == vocabulary.end() ? 0 : it->second);
    }
    inputs.layerTypes.resize(sequence.totalLayers());
    for (std::size_t layer = 0; layer < inputs.layerTypes.size(); ++layer)
        inputs.layerTypes[layer] = typeIndex[sequence.layerType(layer)];
    inputs.layerFields = fieldScaler.transform(layerFieldMatrix(sequence, options.fieldsPerLayer)).cast<float>();
    for (std::size_t row = 0; row <= dataset.rowCount(); ++row)
        inputs.layerStart.push_back(
            static_cast<std::int64_t>(row < dataset.rowCount() ? sequence.layerBegin(row) : sequence.totalLayers()));
    return inputs;
}

PreparedInputs NeuralNetworkRegressor::Impl::prepare(const data::Dataset &dataset, const Eigen::MatrixXd &encoded) const
{
    ScaledInputs scaled = scale(dataset, encoded);
    PreparedInputs inputs;
    inputs.features = toTensor(scaled.features).to(device);
    if (usesLayerTokens()) {
        inputs.layerTypes = torch::tensor(scaled.layerTypes, torch::kInt64);
        inputs.layerFields = toTensor(scaled.layerFields);
        inputs.layerStart = std::move(scaled.layerStart);
    }
    if (dataset.hasTarget())
        inputs.target = toTensor(targetTransform.forward(dataset.target())).to(device);
    return inputs;
}

BatchInputs NeuralNetworkRegressor::Impl::batch(const PreparedInputs &inputs,
                                                const std::vector<Eigen::Index> &rows) const
{
    BatchInputs batch;
    batch.features = inputs.features.index_select(0, rowIndex(rows).to(device)); // [batch, features]
    if (!usesLayerTokens())
        return batch;
    const auto batchSize = static_cast<std::int64_t>(rows.size());
    const std::int64_t fields = options.fieldsPerLayer;
    std::vector<std::int64_t> counts(rows.size());
    std::int64_t longest = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto row = static_cast<std::size_t>(rows[i]);
        counts[i] = inputs.layerStart[row + 1] - inputs.layerStart[row];
        longest = std::max(longest, counts[i]);
    }
    // Pad to this batch's longest sequence only; masking makes the padding invisible.
    auto types = torch::zeros({batchSize, longest}, torch::kInt64);            // [batch, layers]
    auto values = torch::zeros({batchSize, longest, fields}, torch::kFloat32); // [batch, layers, fields]
    const auto *sourceTypes = inputs.layerTypes.data_ptr<std::int64_t>();
    const auto *sourceFields = inputs.layerFields.data_ptr<float>();
    auto *targetTypes = types.data_ptr<std::int64_t>();
    auto *targetFields = values.data_ptr<float>();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::int64_t begin = inputs.layerStart[static_cast<std::size_t>(rows[i])];
        std::memcpy(targetTypes + static_cast<std::int64_t>(i) * longest, sourceTypes + begin,
                    static_cast<std::size_t>(counts[i]) * sizeof(std::int64_t));
        std::memcpy(targetFields + static_cast<std::int64_t>(i) * longest * fields, sourceFields + begin * fields,
                    static_cast<std::size_t>(counts[i] * fields) * sizeof(float));
    }
    batch.layerTypes = types.to(device);
    batch.layerFields = values.to(device);
    batch.layerCounts = torch::tensor(counts, torch::kInt64);
    return batch;
}

NeuralNetworkRegressor::NeuralNetworkRegressor(Hyperparameters hyperparameters, ComputeSettings compute)
    : RegressorBase(std::move(hyperparameters), std::move(compute))
    , mImpl(std::make_unique<Impl>(this->hyperparameters(), this->compute()))
{
}

NeuralNetworkRegressor::~NeuralNetworkRegressor() = default;
NeuralNetworkRegressor::NeuralNetworkRegressor(NeuralNetworkRegressor &&) noexcept = default;
NeuralNetworkRegressor &NeuralNetworkRegressor::operator=(NeuralNetworkRegressor &&) noexcept = default;

std::string NeuralNetworkRegressor::deviceName() const
{
    return mImpl->device.str();
}

bool NeuralNetworkRegressor::readsSimulatedPeak() const
{
    return mImpl->simulatedPeakInput;
}

std::vector<ArchitectureBlock> NeuralNetworkRegressor::architecture() const
{
    return describeOptions(mImpl->options, 20, mImpl->simulatedPeakInput);
}

Eigen::MatrixXd NeuralNetworkRegressor::Impl::fitInputs(const Hyperparameters &hyperparameters,
                                                        const data::Dataset &dataset,
                                                        const std::vector<Eigen::Index> &trainingRows)
{
    encoder.fit(dataset, trainingRows);
    const std::optional<Eigen::VectorXd> peaks =
        hyperparameters.boolean("allocator_input") ? simulatedPeakWherePossible(dataset) : std::nullopt;
    simulatedPeakInput = peaks.has_value();
    Eigen::MatrixXd encoded = peaks ? withColumn(encoder.transform(dataset), *peaks) : encoder.transform(dataset);
    featureScaler.fit(encoded, trainingRows, hyperparameters.boolean("log_inputs"));
    const std::vector<std::string> &featureNames = encoder.featureNames();
    checkKeepable(
        featureScaler, encoded, trainingRows,
        [&](Eigen::Index column) {
            return static_cast<std::size_t>(column) < featureNames.size()
                       ? "feature " + io::quoteForMessage(featureNames[static_cast<std::size_t>(column)], 60)
                       : std::string("the simulated allocator peak");
        },
        dataset.source());

    const data::FeatureEncoding &encoding = encoder.encoding();
    const bool layerTokens = dataset.hasSequence() &&
                             takesLayerTokens(hyperparameters, static_cast<std::int64_t>(encoding.layerTypes.size()),
                                              encoding.fieldsPerLayer);
    layerVocabulary.clear();
    if (layerTokens) {
        layerVocabulary = encoding.layerTypes;
        // Not empty: the layer types, which takesLayerTokens needs, come from these rows' layers.
        std::vector<Eigen::Index> trainingLayers;
        const data::SequenceColumn &sequence = dataset.sequence();
        for (Eigen::Index row : trainingRows)
            for (std::size_t layer = sequence.layerBegin(static_cast<std::size_t>(row));
                 layer < sequence.layerEnd(static_cast<std::size_t>(row)); ++layer)
                trainingLayers.push_back(static_cast<Eigen::Index>(layer));
        const Eigen::MatrixXd fields = layerFieldMatrix(sequence, encoding.fieldsPerLayer);
        fieldScaler.fit(fields, trainingLayers, hyperparameters.boolean("log_inputs"));
        checkKeepable(
            fieldScaler, fields, trainingLayers,
            [&](Eigen::Index field) {
                return "number " + std::to_string(field + 1) + " of the layers in column " +
                       io::quoteForMessage(dataset.sequenceName(), 60);
            },
            dataset.source());
    }
    targetTransform = data::TargetTransform(hyperparameters.boolean("log_target"));
    targetTransform.fit(dataset.target(), trainingRows);
    // Checked here, as loading checks it, so that a model that would not load is never trained.
    if (const std::string flaw = targetTransform.flaw(); !flaw.empty())
        throw io::InputError(dataset.source(), 0, 0,
                             "target column " + io::quoteForMessage(dataset.targetName(), 60) +
                                 " cannot be learned: standardised on the training rows" +
                                 (targetTransform.usesLog1p() ? " after log1p" : "") + " (mean " +
                                 io::formattedNumber("%g", targetTransform.mean()) + ", scale " +
                                 io::formattedNumber("%g", targetTransform.scale()) + "), its transform " + flaw);
    options = networkOptions(hyperparameters, encoded.cols(),
                             layerTokens ? static_cast<std::int64_t>(layerVocabulary.size()) + 1 : 0,
                             layerTokens ? encoding.fieldsPerLayer : 0);
    options.featureTokenOf =
        featureTokensOf(encoding, simulatedPeakInput, hyperparameters.choice("feature_tokens"), encoded.cols());
    return encoded;
}

training::TrainingResult NeuralNetworkRegressor::Impl::trainMember(NetworkMember &member, std::uint64_t seed,
                                                                   int workers, const MemberTraining &shared,
                                                                   training::TrainingObserver *observer,
                                                                   runtime::OperationControl *control) const
{
    // Weight initialisation, and dropout while training, draw from LibTorch's
    // process-wide generator. Holding this lock while drawing keeps networks
    // fitting on other threads (a comparison's parallel fits, the members of an
    // ensemble) from reseeding or drawing in between, so the seed alone decides the result.
    static std::mutex generatorMutex;
    std::unique_lock generatorLock(generatorMutex);
    // A continued training draws its dropout masks afresh, from a seed of its own.
    torch::manual_seed(seed + (shared.continuing ? static_cast<std::uint64_t>(member.checkpoint.epochsDone) : 0));
    if (!shared.continuing)
        member.network = BiGruTransformer(options);
    if (!shared.dropout)
        generatorLock.unlock();
    member.network->to(device);

    training::TrainerSettings settings = shared.settings;
    settings.seed = seed;
    settings.workers = workers;
    BiGruTransformer &network = member.network;
    const PreparedInputs &inputs = shared.inputs;
    const auto loss = [&](const std::vector<Eigen::Index> &rows) {
        const BatchInputs batch = this->batch(inputs, rows);
        const auto predicted = network->forward(batch.features, batch.layerTypes, batch.layerFields,
                                                batch.layerCounts); // [batch]
        return shared.loss(predicted, inputs.target.index_select(0, rowIndex(rows).to(device)));
    };
    // What people read while it trains: the error in MiB, not the loss on the scaled target.
    settings.targetRmse = [&](const std::vector<Eigen::Index> &rows) {
        double squared = 0.0;
        for (std::size_t begin = 0; begin < rows.size(); begin += predictionChunk) {
            const std::vector<Eigen::Index> chunk(
                rows.begin() + static_cast<std::ptrdiff_t>(begin),
                rows.begin() + static_cast<std::ptrdiff_t>(std::min(rows.size(), begin + predictionChunk)));
            const BatchInputs batch = this->batch(inputs, chunk);
            const auto scaled = network->forward(batch.features, batch.layerTypes, batch.layerFields, batch.layerCounts)
                                    .to(torch::kCPU, torch::kFloat64)
                                    .contiguous(); // [chunk]
            const double *values = scaled.data_ptr<double>();
            for (std::size_t i = 0; i < chunk.size(); ++i) {
                const double error = targetTransform.inverse(values[i]) - shared.dataset.target()[chunk[i]];
                squared += error * error;
            }
        }
        return std::sqrt(squared / static_cast<double>(rows.size()));
    };
    training::TrainingCheckpoint checkpoint = shared.continuing ? member.checkpoint : training::TrainingCheckpoint();
    training::TrainingResult result = training::trainModel(*network, settings, shared.fitRows, shared.validationRows,
                                                           loss, observer, control, &checkpoint);
    member.checkpoint = std::move(checkpoint);
    return result;
}

namespace {

// Trains the members of impl, an ensemble, with seeds derived from seed, on threads CPU threads.
training::TrainingResult trainEnsemble(NeuralNetworkRegressor::Impl &impl, std::uint64_t seed,
                                       const MemberTraining &shared, int threads, training::TrainingObserver *observer,
                                       runtime::OperationControl *control)
{
    const int memberCount = static_cast<int>(impl.members.size());
    // Members train side by side, each on its share of the threads; with dropout
    // the generator lock lets one train at a time (trainMember()).
    const int concurrent = concurrentMembers(memberCount, threads, impl.device.is_cpu());
    const int workers = std::max(1, threads / concurrent);
    std::vector<int> firstEpochs;
    for (const NetworkMember &member : impl.members)
        firstEpochs.push_back(shared.continuing ? member.checkpoint.epochsDone + 1 : 1);
    EnsembleProgress progress(observer, memberCount, firstEpochs);
    // More members than train at once take turns epoch by epoch, so that the mean
    // curve grows from the start. Not with dropout, whose generator lock, held for
    // a whole training, would keep the member whose turn it is waiting; not on a GPU.
    bool takeTurns = memberCount > concurrent && impl.device.is_cpu() && !shared.dropout;
    EpochTurns turns(memberCount, concurrent);
    std::vector<std::optional<training::TrainingResult>> results(impl.members.size());
    const auto train = [&](std::size_t m) {
        const int member = static_cast<int>(m);
        std::optional<EpochTurns::Turn> turn;
        if (takeTurns)
            turn.emplace(turns, member, progress.member(member));
        // Member 0 always trains, as a single network does, so a cancelled fit keeps one network.
        if (member == 0 || !control || !control->isCancelled()) {
            // Pinned before the first operation, as a comparison's parallel fits are (evaluation::FoldFits).
            std::optional<training::KernelThreadsGuard> kernelThreads;
            if (concurrent > 1 || takeTurns)
                kernelThreads.emplace(workers);
            training::TrainingObserver *memberObserver = turn ? &*turn : progress.member(member);
            results[m] = impl.trainMember(impl.members[m], ensembleMemberSeed(seed, member), workers, shared,
                                          memberObserver, control);
        }
        progress.memberFinished(member);
    };
    // Should the system give too few threads, none ran: the members train in groups instead.
    if (takeTurns && !runtime::runEachOnItsOwnThread(impl.members.size(), train))
        takeTurns = false;
    if (!takeTurns)
        runtime::parallelFor(impl.members.size(), concurrent, train);
    // A cancelled fit keeps the members that trained; the others never started.
    std::vector<training::TrainingResult> trained;
    std::vector<NetworkMember> kept;
    for (std::size_t m = 0; m < results.size(); ++m)
        if (results[m]) {
            trained.push_back(std::move(*results[m]));
            kept.push_back(std::move(impl.members[m]));
        }
    impl.members = std::move(kept);
    return ensembleResult(trained, progress.meanEpochs());
}

} // namespace

training::TrainingResult NeuralNetworkRegressor::fitRows(const data::Dataset &dataset,
                                                         const std::vector<Eigen::Index> &trainingRows,
                                                         training::TrainingObserver *observer,
                                                         runtime::OperationControl *control)
{
    // Every step allocates and frees tensors of the same sizes; unmapped and faulted in
    // afresh each time, they cost more than the arithmetic (bench/README.md, "Training time").
    const runtime::HeapRetention heap;
    Impl &impl = *mImpl;
    const Hyperparameters &h = hyperparameters();
    // A continued training keeps the scaling of its inputs and its networks.
    const bool continuing = std::exchange(impl.continuing, false);
    Eigen::MatrixXd encoded;
    if (continuing) {
        impl.checkContinuable(schema(), dataset, trainingRows);
        encoded = impl.encode(dataset);
    } else {
        encoded = impl.fitInputs(h, dataset, trainingRows);
        setSchema({dataset.targetName(), impl.encoder.encoding()});
    }
    checkNetworkHyperparameters(h);
    const PreparedInputs inputs = impl.prepare(dataset, encoded);

    // The validation rows come out of the training rows, by a seeded shuffle; every member holds out the same.
    std::vector<Eigen::Index> fitRows = trainingRows;
    std::vector<Eigen::Index> validationRows;
    const auto validationCount = static_cast<std::size_t>(
        std::llround(h.real("validation_fraction") * static_cast<double>(trainingRows.size())));
    if (validationCount > 0 && validationCount < trainingRows.size()) {
        const auto order = data::shuffledRows(static_cast<Eigen::Index>(trainingRows.size()), compute().seed + 7919);
        fitRows.clear();
        for (std::size_t i = 0; i < order.size(); ++i)
            (i < validationCount ? validationRows : fitRows)
                .push_back(trainingRows[static_cast<std::size_t>(order[i])]);
        std::sort(fitRows.begin(), fitRows.end());
        std::sort(validationRows.begin(), validationRows.end());
    }

    // huber_delta is an error of log1p(MiB) (or MiB); the network learns that scale standardised.
    const training::RegressionLoss loss =
        training::RegressionLoss::named(h.choice("loss"), h.real("huber_delta") / impl.targetTransform.scale());
    MemberTraining shared{dataset, inputs, fitRows, validationRows, {}, false, continuing, loss};
    training::TrainerSettings &settings = shared.settings;
    settings.optimizer = h.choice("optimizer");
    settings.learningRate = h.real("learning_rate");
    settings.weightDecay = h.real("weight_decay");
    settings.batchSize = h.integer("batch_size");
    settings.epochs = static_cast<int>(h.integer("epochs"));
    settings.schedule = h.choice("schedule");
    settings.warmupFraction = h.real("warmup_fraction");
    settings.gradientClip = h.real("gradient_clip");
    settings.patience = static_cast<int>(h.integer("patience"));
    shared.dropout = h.real("dropout") > 0.0 || (h.real("gru_dropout") > 0.0 && h.integer("gru_layers") > 1);
    if (!continuing)
        impl.members.assign(static_cast<std::size_t>(h.integer("ensemble")), NetworkMember());
    // Workers share one random generator, so dropout would make runs depend on timing.
    // The trainer fixes each worker's kernels to one thread itself (training::KernelThreadsGuard).
    const int threads = impl.device.is_cpu() && !shared.dropout ? std::max(1, compute().threads) : 1;
    impl.lastTraining = impl.members.size() == 1
                            ? impl.trainMember(impl.members.front(), compute().seed, threads, shared, observer, control)
                            : trainEnsemble(impl, compute().seed, shared, threads, observer, control);
    impl.checkpointRows = trainingRows.size();
    impl.checkpointRowsDigest = trainingRowsDigest(trainingRows);
    impl.snapshotForCpu();
    return impl.lastTraining;
}

Eigen::MatrixXd NeuralNetworkRegressor::Impl::memberOutputs(const data::Dataset &dataset)
{
    // Evaluation mode changes the networks' state, not the model's meaning.
    c10::InferenceMode inference;
    Eigen::MatrixXd outputs(static_cast<Eigen::Index>(dataset.rowCount()), static_cast<Eigen::Index>(members.size()));
    if (device.is_cpu() && members.front().cpuNetwork) {
        // Row by row with the Eigen copy: no padding, no per-operation overhead.
        const ScaledInputs inputs = scale(dataset, encode(dataset));
        const bool layers = usesLayerTokens();
        for (std::size_t row = 0; row < dataset.rowCount(); ++row) {
            const std::int64_t begin = layers ? inputs.layerStart[row] : 0;
            const std::int64_t count = layers ? inputs.layerStart[row + 1] - begin : 0;
            for (std::size_t m = 0; m < members.size(); ++m)
                outputs(static_cast<Eigen::Index>(row), static_cast<Eigen::Index>(m)) = members[m].cpuNetwork->predict(
                    inputs.features.row(static_cast<Eigen::Index>(row)).data(),
                    layers ? inputs.layerTypes.data() + begin : nullptr,
                    layers ? inputs.layerFields.data() + begin * options.fieldsPerLayer : nullptr, count);
        }
        return outputs;
    }
    const PreparedInputs inputs = prepare(dataset, encode(dataset));
    for (std::size_t begin = 0; begin < dataset.rowCount(); begin += predictionChunk) {
        std::vector<Eigen::Index> rows;
        for (std::size_t row = begin; row < std::min(dataset.rowCount(), begin + predictionChunk); ++row)
            rows.push_back(static_cast<Eigen::Index>(row));
        const BatchInputs batch = this->batch(inputs, rows);
        for (std::size_t m = 0; m < members.size(); ++m) {
            BiGruTransformer &network = members[m].network;
            network->eval();
            const auto scaled = network->forward(batch.features, batch.layerTypes, batch.layerFields, batch.layerCounts)
                                    .to(torch::kCPU, torch::kFloat64)
                                    .contiguous(); // [batch]
            const double *values = scaled.data_ptr<double>();
            for (std::size_t i = 0; i < rows.size(); ++i)
                outputs(rows[i], static_cast<Eigen::Index>(m)) = values[i];
        }
    }
    return outputs;
}

Eigen::VectorXd NeuralNetworkRegressor::predictFitted(const data::Dataset &dataset) const
{
    // The members agree in the space the network learns (log1p with log_target), so they are averaged there.
    return mImpl->targetTransform.inverse(memberAgreement(mImpl->memberOutputs(dataset)).mean);
}

Eigen::VectorXd NeuralNetworkRegressor::memberSpread(const data::Dataset &dataset) const
{
    requireFitted();
    return memberAgreement(mImpl->memberOutputs(dataset)).spread * mImpl->targetTransform.scale();
}

std::vector<ArchitectureBlock> describeArchitecture(const Hyperparameters &hyperparameters,
                                                    const ArchitectureSizes &sizes)
{
    const NetworkInputs inputs = networkInputsOf(hyperparameters, sizes);
    const std::int64_t featureCount = sizes.features + (inputs.simulatedPeak ? 1 : 0);
    auto options =
        networkOptions(hyperparameters, std::max<std::int64_t>(featureCount, 1),
                       inputs.layerTokens ? sizes.layerTypes + 1 : 0, inputs.layerTokens ? sizes.fieldsPerLayer : 0);
    options.featureTokenOf =
        featureTokensOf(sizes.encoding, inputs.simulatedPeak, hyperparameters.choice("feature_tokens"), featureCount);
    return describeOptions(options, sizes.typicalLayers, inputs.simulatedPeak);
}

} // namespace gpumem::models
