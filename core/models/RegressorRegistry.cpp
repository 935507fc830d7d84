#include "models/RegressorRegistry.h"

#include "io/InputError.h"
#include "models/AdaBoostRegressor.h"
#include "models/DecisionTreeRegressor.h"
#include "models/ModelFolder.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkRegressor.h"
#include "models/RandomForestRegressor.h"
#include "models/RidgeRegressor.h"
#include "models/XGBoostRegressor.h"

#include "ModelsConfig.h"

#include <functional>

namespace gpumem::models {

namespace {

struct RegistryEntry
{
    const char *name;
    const char *title;
    std::function<Hyperparameters()> defaults;
    std::function<std::unique_ptr<Regressor>(Hyperparameters, ComputeSettings)> create;
    // Loads a folder whose model.json (already read and checked) names this model.
    std::function<std::unique_ptr<Regressor>(const io::JsonValue &, const std::string &, ComputeSettings)> load;
};

// Tabular models are restored by building one at its defaults and reading the folder into it.
template <typename Model> RegistryEntry tabularEntry(const char *name, const char *title, Hyperparameters (*defaults)())
{
    return {name, title, defaults,
            [](Hyperparameters hyperparameters, ComputeSettings compute) -> std::unique_ptr<Regressor> {
                return std::make_unique<Model>(std::move(hyperparameters), std::move(compute));
            },
            [defaults](const io::JsonValue &metadata, const std::string &directory,
                       ComputeSettings compute) -> std::unique_ptr<Regressor> {
                auto model = std::make_unique<Model>(defaults(), std::move(compute));
                model->restore(metadata, directory);
                return model;
            }};
}

const std::vector<RegistryEntry> &registry()
{
    static const std::vector<RegistryEntry> entries = {
        {"bigru_transformer", "BiGRU-Transformer", neuralNetworkHyperparameters,
         [](Hyperparameters hyperparameters, ComputeSettings compute) -> std::unique_ptr<Regressor> {
             return std::make_unique<NeuralNetworkRegressor>(std::move(hyperparameters), std::move(compute));
         },
         [](const io::JsonValue &, const std::string &directory,
            ComputeSettings compute) -> std::unique_ptr<Regressor> {
             return std::make_unique<NeuralNetworkRegressor>(
                 NeuralNetworkRegressor::load(directory, std::move(compute)));
         }},
        tabularEntry<DecisionTreeRegressor>("decision_tree", "Decision tree", decisionTreeHyperparameters),
        tabularEntry<RandomForestRegressor>("random_forest", "Random forest", randomForestHyperparameters),
        tabularEntry<AdaBoostRegressor>("adaboost", "AdaBoost", adaBoostHyperparameters),
#ifdef GPUMEM_WITH_XGBOOST
        tabularEntry<XGBoostRegressor>("xgboost", "XGBoost", xgboostHyperparameters),
#endif
        tabularEntry<RidgeRegressor>("ridge", "Ridge regression", ridgeHyperparameters),
    };
    return entries;
}

const RegistryEntry &entryFor(const std::string &name)
{
    std::string known;
    for (const auto &entry : registry()) {
        if (entry.name == name)
            return entry;
        known += (known.empty() ? "" : ", ") + std::string(entry.name);
    }
    throw io::InputError("unknown model '" + name + "' (known: " + known + ")");
}

} // namespace

std::vector<std::string> regressorNames()
{
    std::vector<std::string> names;
    for (const auto &entry : registry())
        names.emplace_back(entry.name);
    return names;
}

std::string regressorTitle(const std::string &name)
{
    return entryFor(name).title;
}

Hyperparameters regressorHyperparameters(const std::string &name)
{
    return entryFor(name).defaults();
}

std::unique_ptr<Regressor> createRegressor(const std::string &name, Hyperparameters hyperparameters,
                                           ComputeSettings compute)
{
    return entryFor(name).create(std::move(hyperparameters), std::move(compute));
}

std::unique_ptr<Regressor> loadRegressor(const std::string &directory, ComputeSettings compute)
{
    const io::JsonValue metadata = readModelMetadata(directory);
    const std::string name = modelNameOf(metadata);
    const RegistryEntry *entry = nullptr;
    try {
        entry = &entryFor(name);
    } catch (const io::InputError &error) {
        throw io::InputError(directory + "/model.json", 0, 0, error.message());
    }
    return entry->load(metadata, directory, std::move(compute));
}

} // namespace gpumem::models
