// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/RegressorRegistry.h"

#include "io/InputError.h"
#include "io/NamedValues.h"
#include "models/AdaBoostRegressor.h"
#include "models/AllocatorSimulationRegressor.h"
#include "models/DecisionTreeRegressor.h"
#include "models/FormulaRegressor.h"
#include "models/ModelFolder.h"
#include "models/NetworkModelName.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkRegressor.h"
#include "models/RandomForestRegressor.h"
#include "models/RidgeRegressor.h"
#include "models/XGBoostRegressor.h"
#include "runtime/LibraryVersions.h"

#include "ModelsConfig.h"

#include <functional>

namespace gpumem::models {

namespace {

struct RegistryEntry
{
    const char *name;
    const char *title;
    bool inDefaultComparison; // the paper's comparison plus the linear reference
    const char *library;      // the runtime::libraryVersions() entry of the library that computes it
    std::function<Hyperparameters()> defaults;
    std::function<std::unique_ptr<Regressor>(Hyperparameters, ComputeSettings)> create;
    // Loads a folder whose model.json (already read and checked) names this model.
    std::function<std::unique_ptr<Regressor>(const io::Json &, const std::string &, ComputeSettings)> load;
};

// Tabular models are restored by building one at its defaults and reading the folder into it.
template <typename Model>
RegistryEntry tabularEntry(const char *name, const char *title, bool inDefaultComparison, const char *library,
                           Hyperparameters (*defaults)())
{
    return {name,
            title,
            inDefaultComparison,
            library,
            defaults,
            [](Hyperparameters hyperparameters, ComputeSettings compute) -> std::unique_ptr<Regressor> {
                return std::make_unique<Model>(std::move(hyperparameters), std::move(compute));
            },
            [defaults](const io::Json &metadata, const std::string &directory,
                       ComputeSettings compute) -> std::unique_ptr<Regressor> {
                auto model = std::make_unique<Model>(defaults(), std::move(compute));
                model->restore(metadata, directory);
                return model;
            }};
}

const std::vector<RegistryEntry> &registry()
{
    static const std::vector<RegistryEntry> entries = {
        {kNetworkModelName, "BiGRU-Transformer", true, "LibTorch", neuralNetworkHyperparameters,
         [](Hyperparameters hyperparameters, ComputeSettings compute) -> std::unique_ptr<Regressor> {
             return std::make_unique<NeuralNetworkRegressor>(std::move(hyperparameters), std::move(compute));
         },
         [](const io::Json &, const std::string &directory, ComputeSettings compute) -> std::unique_ptr<Regressor> {
             return std::make_unique<NeuralNetworkRegressor>(
                 NeuralNetworkRegressor::load(directory, std::move(compute)));
         }},
        tabularEntry<DecisionTreeRegressor>("decision_tree", "Decision tree", true, "Eigen",
                                            decisionTreeHyperparameters),
        tabularEntry<RandomForestRegressor>("random_forest", "Random forest", true, "Eigen",
                                            randomForestHyperparameters),
        tabularEntry<AdaBoostRegressor>("adaboost", "AdaBoost", true, "Eigen", adaBoostHyperparameters),
#ifdef GPUMEM_WITH_XGBOOST
        tabularEntry<XGBoostRegressor>("xgboost", "XGBoost", true, "XGBoost", xgboostHyperparameters),
#endif
        tabularEntry<RidgeRegressor>("ridge", "Ridge regression", true, "Eigen", ridgeHyperparameters),
        tabularEntry<FormulaRegressor>("formula", "Analytic formula", false, "Eigen", formulaHyperparameters),
        tabularEntry<AllocatorSimulationRegressor>("allocator_sim", "CUDA allocator simulation", false, "Eigen",
                                                   allocatorSimulationHyperparameters),
    };
    return entries;
}

const RegistryEntry &entryFor(const std::string &name)
{
    for (const auto &entry : registry())
        if (entry.name == name)
            return entry;
    throw io::unknownName("model", name, regressorNames());
}

} // namespace

std::vector<std::string> regressorNames()
{
    std::vector<std::string> names;
    for (const auto &entry : registry())
        names.emplace_back(entry.name);
    return names;
}

std::vector<std::string> defaultComparisonModels()
{
    std::vector<std::string> names;
    for (const auto &entry : registry())
        if (entry.inDefaultComparison)
            names.emplace_back(entry.name);
    return names;
}

std::string referenceBaseline()
{
#ifdef GPUMEM_WITH_XGBOOST
    return "xgboost";
#else
    return "random_forest";
#endif
}

std::string regressorTitle(const std::string &name)
{
    return entryFor(name).title;
}

std::string regressorLibrary(const std::string &name)
{
    const std::string library = entryFor(name).library;
    for (const auto &[entryName, version] : runtime::libraryVersions().entries())
        if (entryName == library)
            return library + ' ' + version;
    return library;
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
    return loadRegressor(readModelMetadata(directory), directory, std::move(compute));
}

std::unique_ptr<Regressor> loadRegressor(const io::Json &metadata, const std::string &directory,
                                         ComputeSettings compute)
{
    const std::string name = modelNameOf(metadata);
    const RegistryEntry *entry = nullptr;
    try {
        entry = &entryFor(name);
    } catch (const io::InputError &error) {
        throw io::InputError(directory + "/model.json", 0, 0, error.markedMessage());
    }
    return entry->load(metadata, directory, std::move(compute));
}

} // namespace gpumem::models
