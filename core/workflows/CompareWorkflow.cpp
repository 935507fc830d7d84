// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/CompareWorkflow.h"

#include "data/JobNames.h"
#include "data/RowGroups.h"
#include "io/InputError.h"
#include "models/NetworkModelName.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/Presets.h"
#include "models/RegressorRegistry.h"
#include "runtime/ThreadSettings.h"
#include "workflows/ConfigurationChecks.h"

#include <algorithm>

namespace gpumem::workflows {

models::Hyperparameters startingValues(const std::string &model, const models::Hyperparameters &networkValues)
{
    return model == models::kNetworkModelName ? networkValues : models::regressorHyperparameters(model);
}

models::Hyperparameters networkPresetValues(const std::string &name)
{
    models::Hyperparameters values = models::neuralNetworkHyperparameters();
    models::applyHyperparameterFile(values, models::presetPath(name));
    return values;
}

std::vector<evaluation::ModelSpec> comparedModels(const std::vector<std::string> &names,
                                                  const models::Hyperparameters &networkValues)
{
    std::vector<evaluation::ModelSpec> specs;
    for (const auto &name : names) {
        if (std::any_of(specs.begin(), specs.end(), [&name](const auto &spec) { return spec.name == name; }))
            throw io::InputError("the models to compare name " + io::quoteForMessage(name) + " twice");
        specs.push_back({name, startingValues(name, networkValues)});
    }
    return specs;
}

report::ComparisonContext comparisonContext(const DataSelection &data, const std::string &dataName,
                                            const evaluation::ExperimentSettings &settings, const std::string &groupBy,
                                            const evaluation::ExperimentResult &result)
{
    const data::Dataset &dataset = *data.dataset;
    report::ComparisonContext context;
    context.dataset = dataName;
    context.target = dataset.targetName();
    context.rows = dataset.rowCount();
    for (std::size_t column = 0; column < data.table->columnCount() && column < data.roles.size(); ++column)
        if (data.roles[column] == data::ColumnRole::Feature || data.roles[column] == data::ColumnRole::Sequence)
            context.features.push_back(data.table->column(column).name);
    context.folds = static_cast<int>(evaluation::splitsPerRepetition(result));
    context.repeats = result.repeats;
    context.groupBy = groupBy;
    context.testFraction = settings.testFraction;
    context.seed = settings.seed;
    context.rowLines = dataset.rowLines();
    context.rowNames = data::jobNames(*data.table, dataset.rowLines());
    return context;
}

void CompareConfiguration::validate() const
{
    checkHoldOutFraction(experiment.testFraction);
    if (experiment.testFraction > 0.0 && (experiment.repeats > 1 || !groupBy.empty()))
        throw io::InputError(io::parameter("repeats") + " and " + io::parameter("group_by") +
                             " need cross-validation, not " + io::parameter("test_fraction"));
}

CompareResult compare(const DataSelection &data, const std::string &dataName, CompareConfiguration configuration,
                      evaluation::ExperimentObserver *observer, runtime::OperationControl *control)
{
    configuration.validate();
    runtime::setComputeThreads(configuration.experiment.compute.threads);
    if (!configuration.groupBy.empty())
        configuration.experiment.groups = data::rowGroups(*data.table, configuration.groupBy, data.usableRows);
    if (configuration.experiment.explanation && !configuration.experiment.explanation->inputs)
        configuration.experiment.explanation->inputs =
            std::make_shared<const evaluation::InputEditor>(*data.table, data.roles, data.usableRows);
    CompareResult result;
    result.experiment = evaluation::runExperiment(*data.dataset, configuration.experiment, observer, control);
    for (const auto &model : result.experiment.models)
        for (const auto &warning : model.warnings)
            result.warnings.push_back(model.name + ": " + warning);
    result.warnings.insert(result.warnings.end(), result.experiment.warnings.begin(), result.experiment.warnings.end());
    result.context =
        comparisonContext(data, dataName, configuration.experiment, configuration.groupBy, result.experiment);
    return result;
}

} // namespace gpumem::workflows
