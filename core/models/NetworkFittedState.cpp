// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/NetworkFittedState.h"

#include "io/InputError.h"
#include "io/NumberText.h"
#include "models/ModelFolder.h"
#include "models/NeuralNetworkHyperparameters.h"

namespace gpumem::data {

void to_json(io::Json &json, const Standardizer &scaler)
{
    const auto numbers = [](const Eigen::RowVectorXd &values) {
        return std::vector<double>(values.data(), values.data() + values.size());
    };
    json = {{"log", scaler.logColumns()}, {"mean", numbers(scaler.means())}, {"scale", numbers(scaler.scales())}};
}

} // namespace gpumem::data

namespace gpumem::models {

namespace {

Eigen::RowVectorXd readVector(const io::Json &array, std::size_t expectedSize, const std::string &what)
{
    const auto &items = io::toArray(array);
    if (items.size() != expectedSize)
        throw io::InputError(what + " holds " + std::to_string(items.size()) + " values, not " +
                             std::to_string(expectedSize));
    Eigen::RowVectorXd values(static_cast<Eigen::Index>(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i)
        values[static_cast<Eigen::Index>(i)] = io::toNumber(items[i]);
    return values;
}

data::Standardizer readScaler(const io::Json &object, std::size_t columns, const std::string &what)
{
    const auto &flags = io::toArray(io::member(object, "log"));
    if (flags.size() != columns)
        throw io::InputError(what + " has " + std::to_string(flags.size()) + " log flags, not " +
                             std::to_string(columns));
    std::vector<bool> logColumns;
    for (const auto &flag : flags)
        logColumns.push_back(io::toBool(flag));
    Eigen::RowVectorXd means = readVector(io::member(object, "mean"), columns, what + "'s means");
    Eigen::RowVectorXd scales = readVector(io::member(object, "scale"), columns, what + "'s scales");
    data::Standardizer scaler(std::move(logColumns), std::move(means), std::move(scales));
    // A zero, tiny or huge scale turns every input into an infinity or a NaN.
    if (const Eigen::Index column = scaler.firstUnkeepableColumn(); column >= 0)
        throw io::InputError(what + " of column " + std::to_string(column + 1) +
                             " must have a finite mean and a scale between 1e-100 and 1e100");
    return scaler;
}

data::TargetTransform readTargetTransform(const io::Json &object)
{
    const data::TargetTransform transform(io::toBool(io::member(object, "log1p")),
                                          io::toNumber(io::member(object, "mean")),
                                          io::toNumber(io::member(object, "scale")));
    if (const std::string flaw = transform.flaw(); !flaw.empty())
        throw io::InputError("the target transform (mean " + io::formattedNumber("%g", transform.mean()) + ", scale " +
                             io::formattedNumber("%g", transform.scale()) + ") " + flaw);
    return transform;
}

} // namespace

void to_json(io::Json &json, const NetworkFittedState &state)
{
    json = {{"weights", NetworkFittedState::weightsFile},
            {"feature_scaling", state.featureScaler},
            {"layer_vocabulary", state.layerVocabulary}};
    if (state.layerTypeCount > 0)
        json["field_scaling"] = state.fieldScaler;
    const data::TargetTransform &transform = state.targetTransform;
    json["target_transform"] = {
        {"log1p", transform.usesLog1p()}, {"mean", transform.mean()}, {"scale", transform.scale()}};
    json["network"] = {{"feature_count", state.featureCount},
                       {"layer_type_count", state.layerTypeCount},
                       {"fields_per_layer", state.fieldsPerLayer}};
    json["members"] = state.members;
    json["simulated_peak_input"] = state.simulatedPeakInput;
}

NetworkFittedState NetworkFittedState::read(const io::Json &fitted, std::size_t encodedFeatureCount)
{
    if (io::toString(io::member(fitted, "weights")) != weightsFile)
        throw io::InputError(std::string("the network's weights file must be ") + weightsFile);
    NetworkFittedState state;
    if (const io::Json *simulated = io::findMember(fitted, "simulated_peak_input"))
        state.simulatedPeakInput = io::toBool(*simulated);
    const io::Json &network = io::member(fitted, "network");
    state.featureCount =
        io::toWholeNumber(io::member(network, "feature_count"), 1,
                          static_cast<std::int64_t>(data::maxEncodedFeatures) + 1, "\"feature_count\"");
    const std::size_t networkInputs = encodedFeatureCount + (state.simulatedPeakInput ? 1 : 0);
    if (static_cast<std::size_t>(state.featureCount) != networkInputs)
        throw io::InputError("\"feature_count\" is " + std::to_string(state.featureCount) +
                             ", but the schema encodes " + std::to_string(encodedFeatureCount) + " features" +
                             (state.simulatedPeakInput ? " and the simulated peak is one more" : ""));
    state.layerVocabulary =
        readStrings(io::member(fitted, "layer_vocabulary"), maxModelLayerTypes, "\"layer_vocabulary\"");
    state.layerTypeCount = io::toWholeNumber(io::member(network, "layer_type_count"), 0,
                                             static_cast<std::int64_t>(maxModelLayerTypes) + 1, "\"layer_type_count\"");
    const bool layerTokens = state.layerTypeCount > 0;
    if (layerTokens && static_cast<std::size_t>(state.layerTypeCount) != state.layerVocabulary.size() + 1)
        throw io::InputError("\"layer_type_count\" is " + std::to_string(state.layerTypeCount) +
                             ", but the layer vocabulary holds " + std::to_string(state.layerVocabulary.size()) +
                             " types (plus one for unknown types)");
    state.fieldsPerLayer = io::toWholeNumber(io::member(network, "fields_per_layer"), 0, 64, "\"fields_per_layer\"");
    if (layerTokens != (state.fieldsPerLayer > 0))
        throw io::InputError("\"fields_per_layer\" and \"layer_type_count\" must both be 0 or both be positive");

    if (const io::Json *members = io::findMember(fitted, "members"))
        state.members = io::toWholeNumber(*members, 1, maxEnsembleMembers, "\"members\"");

    state.featureScaler = readScaler(io::member(fitted, "feature_scaling"), networkInputs, "the feature scaling");
    if (layerTokens)
        state.fieldScaler = readScaler(io::member(fitted, "field_scaling"),
                                       static_cast<std::size_t>(state.fieldsPerLayer), "the layer field scaling");
    state.targetTransform = readTargetTransform(io::member(fitted, "target_transform"));
    return state;
}

} // namespace gpumem::models
