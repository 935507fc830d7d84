// Saving and loading the neural regressor as a model folder:
//   model.json   hyperparameters, schema, scalers, target transform, training summary, library versions
//   weights.pt   the network's parameters (LibTorch archive)
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkImpl.h"

#include "models/ModelFolder.h"
#include "runtime/LibraryVersions.h"

#include "io/AtomicDirectoryWriter.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/JsonValue.h"
#include "io/JsonWriter.h"

#include <fstream>

namespace gpumem::models {

namespace {

constexpr const char *modelName = "bigru_transformer";

void writeVector(io::JsonWriter &json, const Eigen::RowVectorXd &values)
{
    json.beginArray();
    for (Eigen::Index i = 0; i < values.size(); ++i)
        json.value(values[i]);
    json.endArray();
}

void writeScaler(io::JsonWriter &json, const data::Standardizer &scaler)
{
    json.beginObject();
    json.key("log").beginArray();
    for (bool flag : scaler.logColumns())
        json.value(flag);
    json.endArray();
    json.key("mean");
    writeVector(json, scaler.means());
    json.key("scale");
    writeVector(json, scaler.scales());
    json.endObject();
}

Eigen::RowVectorXd readVector(const io::JsonValue &array)
{
    const auto &items = array.toArray();
    Eigen::RowVectorXd values(static_cast<Eigen::Index>(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i)
        values[static_cast<Eigen::Index>(i)] = items[i].toNumber();
    return values;
}

data::Standardizer readScaler(const io::JsonValue &object)
{
    std::vector<bool> logColumns;
    for (const auto &flag : object.at("log").toArray())
        logColumns.push_back(flag.toBool());
    try {
        return data::Standardizer(std::move(logColumns), readVector(object.at("mean")), readVector(object.at("scale")));
    } catch (const std::invalid_argument &error) {
        throw io::InputError(error.what());
    }
}

} // namespace

void NeuralNetworkRegressor::save(const std::string &directory) const
{
    const Impl &impl = *mImpl;
    if (!impl.network)
        throw io::InputError("the model has not been trained");
    io::AtomicDirectoryWriter folder(directory);
    try {
        torch::save(impl.network, folder.filePath("weights.pt"));
    } catch (const c10::Error &error) {
        throw io::InputError(folder.filePath("weights.pt"), 0, 0, "cannot write the weights: " + error.msg());
    }

    std::ofstream out(folder.filePath("model.json"), std::ios::binary);
    io::JsonWriter json(out);
    json.beginObject();
    writeModelHeader(json, modelName);
    json.key("hyperparameters");
    impl.hyperparameters.writeValues(json);
    json.key("seed").value(static_cast<std::int64_t>(impl.compute.seed));

    writeSchema(json, impl.schema);

    json.key("feature_scaling");
    writeScaler(json, impl.featureScaler);
    json.key("layer_vocabulary").value(impl.layerVocabulary);
    if (impl.usesLayerTokens()) {
        json.key("field_scaling");
        writeScaler(json, impl.fieldScaler);
    }
    json.key("target_transform").beginObject();
    json.key("log1p").value(impl.targetTransform.usesLog1p());
    json.key("mean").value(impl.targetTransform.mean());
    json.key("scale").value(impl.targetTransform.scale());
    json.endObject();
    json.key("network").beginObject();
    json.key("feature_count").value(impl.options.featureCount);
    json.key("layer_type_count").value(impl.options.layerTypeCount);
    json.key("fields_per_layer").value(impl.options.fieldsPerLayer);
    json.endObject();

    const training::TrainingResult &training = impl.lastTraining;
    json.key("training").beginObject();
    json.key("stop_reason").value(training::stopReasonName(training.stopReason));
    json.key("epochs_run").value(training.epochs.size());
    json.key("best_epoch").value(training.bestEpoch);
    json.key("seconds").value(training.seconds);
    json.key("device").value(impl.device.str());
    json.endObject();

    runtime::writeLibraryVersions(json);
    json.endObject();
    out.close();
    if (!out)
        throw io::InputError(folder.filePath("model.json"), 0, 0, "cannot write (disk full?)");
    folder.commit();
}

NeuralNetworkRegressor NeuralNetworkRegressor::load(const std::string &directory, ComputeSettings compute)
{
    const std::string metadataPath = directory + "/model.json";
    const io::JsonValue metadata = readModelMetadata(directory);
    try {
        if (modelNameOf(metadata) != modelName)
            throw io::InputError("the folder holds a '" + modelNameOf(metadata) + "' model, not " + modelName);

        Hyperparameters hyperparameters = neuralNetworkHyperparameters();
        hyperparameters.apply(metadata.at("hyperparameters"), metadataPath);
        compute.seed = static_cast<std::uint64_t>(metadata.at("seed").toNumber());
        auto impl = std::make_unique<Impl>(std::move(hyperparameters), compute);

        impl->schema = readSchema(metadata);
        impl->encoder = data::FeatureEncoder(impl->schema.encoding);
        impl->featureScaler = readScaler(metadata.at("feature_scaling"));
        impl->layerVocabulary = readStrings(metadata.at("layer_vocabulary"));
        if (const io::JsonValue *fieldScaling = metadata.find("field_scaling"))
            impl->fieldScaler = readScaler(*fieldScaling);
        const io::JsonValue &target = metadata.at("target_transform");
        impl->targetTransform = data::TargetTransform(target.at("log1p").toBool(), target.at("mean").toNumber(),
                                                      target.at("scale").toNumber());
        const io::JsonValue &network = metadata.at("network");
        impl->options = impl->optionsFor(static_cast<std::int64_t>(network.at("feature_count").toNumber()),
                                         static_cast<std::int64_t>(network.at("layer_type_count").toNumber()),
                                         static_cast<std::int64_t>(network.at("fields_per_layer").toNumber()));
        if (static_cast<std::size_t>(impl->options.featureCount) != impl->encoder.featureNames().size() ||
            impl->featureScaler.means().size() != impl->options.featureCount)
            throw io::InputError("the feature count disagrees with the schema");
        impl->network = BiGruTransformer(impl->options);
        const std::string weightsPath = directory + "/weights.pt";
        try {
            torch::load(impl->network, weightsPath);
        } catch (const c10::Error &error) {
            throw io::InputError(weightsPath, 0, 0, "cannot read the weights: " + error.msg().substr(0, 200));
        }
        impl->network->to(impl->device);
        impl->snapshotForCpu();
        return NeuralNetworkRegressor(std::move(impl));
    } catch (const io::InputError &error) {
        if (!error.file().empty())
            throw;
        throw io::InputError(metadataPath, 0, 0, error.message());
    }
}

} // namespace gpumem::models
