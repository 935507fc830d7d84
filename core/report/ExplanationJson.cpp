// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/ExplanationJson.h"

#include "io/InputError.h"
#include "report/RowValuesJson.h"

#include <algorithm>
#include <limits>

namespace gpumem::report {

namespace {

std::vector<double> valuesOf(const Eigen::VectorXd &values)
{
    return {values.data(), values.data() + values.size()};
}

Eigen::VectorXd vectorOf(const std::vector<double> &values)
{
    return Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

// One value per grid point, null where no fold measured one.
io::Json pointsJson(const std::vector<double> &values)
{
    return rowValuesJson(vectorOf(values));
}

std::vector<double> readPoints(const io::Json &array, std::size_t expected, const std::string &what)
{
    std::vector<double> values = valuesOf(readRowValues(array));
    if (values.size() != expected)
        throw io::InputError(what + " has " + std::to_string(values.size()) + " values for " +
                             std::to_string(expected) + " grid points");
    return values;
}

} // namespace

io::Json explanationJson(const evaluation::ExperimentResult &result)
{
    io::Json grids = io::Json::array();
    for (const auto &grid : result.partialDependenceGrids)
        grids.push_back({{"input", grid.input},
                         {"training_minimum", grid.trainingMinimum},
                         {"training_maximum", grid.trainingMaximum},
                         {"values", pointsJson(grid.values)}});
    io::Json models = io::Json::array();
    for (const auto &model : result.models) {
        io::Json importance = io::Json::array();
        for (const auto &input : model.importance)
            importance.push_back({{"input", input.input},
                                  {"mean", input.mean},
                                  {"standard_deviation", input.standardDeviation},
                                  {"measurements", input.measurements}});
        io::Json curves = io::Json::array();
        for (const auto &curve : model.partialDependence)
            curves.push_back({{"input", curve.input},
                              {"mean", pointsJson(curve.mean)},
                              {"standard_deviation", pointsJson(curve.standardDeviation)}});
        models.push_back({{"model", model.name}, {"importance", importance}, {"partial_dependence", curves}});
    }
    return {{"inputs", result.inputs}, {"partial_dependence_grids", grids}, {"models", models}};
}

void readExplanation(const io::Json &explanation, evaluation::ExperimentResult &result)
{
    result.inputs = io::toStrings(io::member(explanation, "inputs"));
    result.partialDependenceGrids.clear();
    for (const auto &item : io::toArray(io::member(explanation, "partial_dependence_grids"))) {
        evaluation::PartialDependenceGrid grid;
        grid.input = io::toString(io::member(item, "input"));
        const auto input = std::find(result.inputs.begin(), result.inputs.end(), grid.input);
        if (input == result.inputs.end())
            throw io::InputError("explanation: grid of unknown input '" + grid.input + "'");
        grid.inputIndex = static_cast<std::size_t>(input - result.inputs.begin());
        grid.trainingMinimum = io::toNumber(io::member(item, "training_minimum"));
        grid.trainingMaximum = io::toNumber(io::member(item, "training_maximum"));
        grid.values = valuesOf(readRowValues(io::member(item, "values")));
        if (grid.values.size() < 2)
            throw io::InputError("explanation: the grid of '" + grid.input + "' needs at least 2 values");
        result.partialDependenceGrids.push_back(std::move(grid));
    }
    for (const auto &item : io::toArray(io::member(explanation, "models"))) {
        const std::string &name = io::toString(io::member(item, "model"));
        const auto model = std::find_if(result.models.begin(), result.models.end(),
                                        [&name](const auto &candidate) { return candidate.name == name; });
        if (model == result.models.end())
            throw io::InputError("explanation: unknown model '" + name + "'");
        model->importance.clear();
        for (const auto &entry : io::toArray(io::member(item, "importance"))) {
            evaluation::InputImportance importance;
            importance.input = io::toString(io::member(entry, "input"));
            importance.mean = io::toNumber(io::member(entry, "mean"));
            importance.standardDeviation = io::toNumber(io::member(entry, "standard_deviation"));
            importance.measurements = static_cast<std::size_t>(io::toWholeNumber(
                io::member(entry, "measurements"), 0, std::numeric_limits<std::int32_t>::max(), "\"measurements\""));
            model->importance.push_back(std::move(importance));
        }
        if (model->importance.size() != result.inputs.size())
            throw io::InputError("explanation: model '" + name + "' scores " +
                                 std::to_string(model->importance.size()) + " inputs of " +
                                 std::to_string(result.inputs.size()));
        model->partialDependence.clear();
        const auto &curves = io::toArray(io::member(item, "partial_dependence"));
        if (curves.size() != result.partialDependenceGrids.size())
            throw io::InputError("explanation: model '" + name + "' has " + std::to_string(curves.size()) +
                                 " partial dependences for " + std::to_string(result.partialDependenceGrids.size()) +
                                 " grids");
        for (std::size_t index = 0; index < curves.size(); ++index) {
            const std::size_t points = result.partialDependenceGrids[index].values.size();
            const std::string what = "explanation: model '" + name + "'s partial dependence";
            evaluation::PartialDependenceCurve curve;
            curve.input = io::toString(io::member(curves[index], "input"));
            curve.mean = readPoints(io::member(curves[index], "mean"), points, what);
            curve.standardDeviation = readPoints(io::member(curves[index], "standard_deviation"), points, what);
            model->partialDependence.push_back(std::move(curve));
        }
    }
}

} // namespace gpumem::report
