// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/ArchitectureSizes.h"

#include "io/InputError.h"
#include "models/SimulatedPeakInput.h"

namespace gpumem::models {

ArchitectureSizes architectureSizesOf(const data::Dataset &dataset)
{
    std::vector<Eigen::Index> rows(dataset.rowCount());
    for (std::size_t row = 0; row < rows.size(); ++row)
        rows[row] = static_cast<Eigen::Index>(row);
    data::FeatureEncoder encoder;
    encoder.fit(dataset, rows);
    ArchitectureSizes sizes;
    sizes.features = static_cast<std::int64_t>(encoder.featureNames().size());
    sizes.layerTypes = static_cast<std::int64_t>(encoder.encoding().layerTypes.size());
    sizes.fieldsPerLayer = encoder.encoding().fieldsPerLayer;
    sizes.typicalLayers =
        dataset.hasSequence()
            ? static_cast<std::int64_t>(dataset.sequence().totalLayers() / std::max<std::size_t>(1, dataset.rowCount()))
            : 0;
    sizes.encoding = encoder.encoding();
    sizes.simulatedPeak = simulatedPeakWherePossible(dataset).has_value();
    return sizes;
}

bool takesLayerTokens(const Hyperparameters &hyperparameters, std::int64_t layerTypes, std::int64_t fieldsPerLayer)
{
    return hyperparameters.boolean("layer_tokens") && layerTypes > 0 && fieldsPerLayer > 0;
}

void checkLayerTokens(const data::Dataset &dataset)
{
    const data::SequenceColumn &sequence = dataset.sequence();
    for (std::size_t row = 0; row < dataset.rowCount(); ++row)
        if (const std::size_t layers = sequence.layerCount(row); layers > maxLayerTokens)
            throw io::InputError(
                dataset.source(), dataset.rowLines()[row], static_cast<std::int64_t>(dataset.sequenceColumnIndex()) + 1,
                "column " + io::quoteForMessage(dataset.sequenceName(), 60) + " holds " + std::to_string(layers) +
                    " layers, more than the " + std::to_string(maxLayerTokens) +
                    " the network takes as layer tokens, whose attention's memory grows with the "
                    "square of their count; set layer_tokens=false or leave such rows out");
}

NetworkInputs networkInputsOf(const Hyperparameters &hyperparameters, const ArchitectureSizes &sizes)
{
    NetworkInputs inputs;
    inputs.simulatedPeak = hyperparameters.boolean("allocator_input") && sizes.simulatedPeak;
    inputs.layerTokens = takesLayerTokens(hyperparameters, sizes.layerTypes, sizes.fieldsPerLayer);
    return inputs;
}

std::string describeNetworkInputs(const Hyperparameters &hyperparameters, const ArchitectureSizes &sizes)
{
    const NetworkInputs inputs = networkInputsOf(hyperparameters, sizes);
    std::string text = hyperparameters.choice("architecture") + " for " + std::to_string(sizes.features) + " features";
    if (inputs.simulatedPeak)
        text += " and the simulated allocator peak";
    if (inputs.layerTokens)
        text += " and layer tokens (" + std::to_string(sizes.layerTypes) + " layer types)";
    if (const std::int64_t members = hyperparameters.integer("ensemble"); members > 1)
        text += "; " + std::to_string(members) + " such networks, averaged (the parameters are one network's)";
    return text;
}

} // namespace gpumem::models
