// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/DescribeModelCommand.h"

#include "cli/CommandParser.h"
#include "cli/DataOptions.h"
#include "cli/ModelOptions.h"
#include "cli/TextTable.h"
#include "data/FeatureEncoder.h"
#include "io/InputError.h"
#include "io/JsonDocument.h"
#include "models/ArchitectureSizes.h"
#include "models/NetworkModelName.h"
#include "models/NeuralNetworkRegressor.h"
#include "models/RegressorRegistry.h"

#include <optional>
#include <sstream>

namespace gpumem::cli {

namespace {

// The example sizes, or those of the data file given.
struct DataSizes : models::ArchitectureSizes
{
    std::string source = "example sizes (no DATA.csv given)";
};

DataSizes sizesOf(const std::string &path, const DataOptions &options)
{
    const workflows::DataSelection selected = workflows::selectData(dataRequest(path, options));
    DataSizes sizes;
    static_cast<models::ArchitectureSizes &>(sizes) = models::architectureSizesOf(*selected.dataset);
    sizes.source = path;
    return sizes;
}

// Describes a model other than the network: its hyperparameters, as --set takes them.
int describeHyperparameters(const std::string &model, const ModelOptions &options, bool asJson, std::ostream &out)
{
    const models::Hyperparameters hyperparameters = hyperparametersFor(model, options);
    if (asJson) {
        io::writeJsonDocument(out, {{"model", model},
                                    {"title", models::regressorTitle(model)},
                                    {"hyperparameters", hyperparameters.values()},
                                    {"descriptions", hyperparameters.descriptions()}});
        out << '\n';
        return 0;
    }
    out << models::regressorTitle(model) << " (" << model << "); set with --set " << model << ".NAME=VALUE\n\n";
    TextTable table({"hyperparameter", "value", "allowed", "meaning"});
    for (const auto &spec : hyperparameters.specs()) {
        std::string allowed;
        if (spec.type == models::HyperparameterType::Choice) {
            for (const auto &choice : spec.choices)
                allowed += (allowed.empty() ? "" : "|") + choice;
        } else if (spec.type == models::HyperparameterType::Boolean) {
            allowed = "true|false";
        } else {
            std::ostringstream range;
            range << spec.minimum << " – " << spec.maximum << (spec.unit.empty() ? "" : " " + spec.unit);
            allowed = range.str();
        }
        const std::string text = hyperparameters.text(spec.name);
        table.addRow({spec.name, text.substr(text.find('=') + 1), allowed, spec.help});
    }
    table.print(out);
    return 0;
}

} // namespace

int runDescribeModel(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &)
{
    CommandParser parser("gpumem describe-model", "gpumem describe-model [DATA.csv] [options]",
                         "Shows the network the hyperparameters build: token embedding, BiGRU, Transformer\n"
                         "encoder, pooling and head, with tensor shapes and parameter counts per block.");
    CLI::App &app = parser.app();
    std::optional<std::string> path;
    app.add_option("DATA.csv", path, "take the token counts and layer types from this file");
    DataOptions dataOptions;
    addDataOptions(app, dataOptions);
    ModelOptions modelOptions;
    addModelOptions(app, modelOptions);
    std::string model = models::kNetworkModelName;
    app.add_option("--model", model, "describe another model's hyperparameters (e.g. random_forest)")
        ->type_name("NAME");
    bool asJson = false;
    app.add_flag("--json", asJson, "print JSON: the blocks and every hyperparameter's description and value");
    if (!parser.parse(arguments, out))
        return 0;
    if (model != models::kNetworkModelName)
        return describeHyperparameters(model, modelOptions, asJson, out);
    const models::Hyperparameters hyperparameters = hyperparametersFrom(modelOptions);
    const DataSizes sizes = path ? sizesOf(*path, dataOptions) : DataSizes();
    const auto blocks = models::describeArchitecture(hyperparameters, sizes);
    std::int64_t total = 0;
    for (const auto &block : blocks)
        total += block.parameters;

    if (asJson) {
        io::Json blocksJson = io::Json::array();
        for (const auto &block : blocks)
            blocksJson.push_back({{"name", block.name},
                                  {"detail", block.detail},
                                  {"output_shape", block.outputShape},
                                  {"parameters", block.parameters}});
        io::writeJsonDocument(out, {{"sizes_from", sizes.source},
                                    {"blocks", std::move(blocksJson)},
                                    {"total_parameters", total},
                                    {"hyperparameters", hyperparameters.values()},
                                    {"descriptions", hyperparameters.descriptions()}});
        return 0;
    }
    out << models::describeNetworkInputs(hyperparameters, sizes) << "; sizes from " << sizes.source << "\n\n";
    TextTable table({"block", "output shape", TextTable::numeric("parameters"), "detail"});
    for (const auto &block : blocks)
        table.addRow({block.name, block.outputShape, std::to_string(block.parameters), block.detail});
    table.addRow({"Total", "", std::to_string(total), ""});
    table.print(out);
    return 0;
}

} // namespace gpumem::cli
