// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/ExperimentJson.h"

#include "io/InputError.h"
#include "models/ModelFolder.h"
#include "models/RegressorRegistry.h"
#include "report/BoundJson.h"
#include "report/MetricsJson.h"
#include "training/StopReasonText.h"

#include <cmath>
#include <limits>
#include <optional>

namespace gpumem::report {

namespace {

constexpr double notANumber = std::numeric_limits<double>::quiet_NaN();

void writeRows(io::JsonWriter &json, const Eigen::VectorXd &values)
{
    json.beginArray();
    for (Eigen::Index row = 0; row < values.size(); ++row)
        json.value(values[row]); // NaN (never tested) becomes null
    json.endArray();
}

Eigen::VectorXd readRows(const io::Json &array)
{
    const auto &items = io::toArray(array);
    Eigen::VectorXd values(static_cast<Eigen::Index>(items.size()));
    for (std::size_t row = 0; row < items.size(); ++row)
        values[static_cast<Eigen::Index>(row)] = items[row].is_null() ? notANumber : io::toNumber(items[row]);
    return values;
}

// The strings of an optional array member: nothing when the file predates it.
std::vector<std::string> stringsOf(const io::Json *array)
{
    return array ? io::toStrings(*array) : std::vector<std::string>{};
}

void writeModel(io::JsonWriter &json, const evaluation::ModelResult &model,
                const std::optional<calibration::CalibrationSettings> &calibration, bool withRows)
{
    json.beginObject();
    json.key("name").value(model.name);
    json.key("title").value(model.title);
    json.key("library").value(models::regressorLibrary(model.name));
    json.key("hyperparameters");
    model.hyperparameters.writeValues(json);
    json.key("metrics");
    writeMetrics(json, model.mean);
    json.key("std");
    writeMetrics(json, model.standardDeviation);
    json.key("per_fold").beginArray();
    for (const auto &fold : model.folds)
        writeMetrics(json, fold.metrics);
    json.endArray();
    json.key("train_seconds").value(model.trainSeconds);
    json.key("predict_seconds").value(model.predictSeconds);
    json.key("per_fold_train_seconds").beginArray();
    for (const auto &fold : model.folds)
        json.value(fold.trainSeconds);
    json.endArray();
    json.key("per_fold_predict_seconds").beginArray();
    for (const auto &fold : model.folds)
        json.value(fold.predictSeconds);
    json.endArray();
    json.key("stop_reasons").beginArray();
    for (const auto &fold : model.folds)
        json.value(training::stopReasonName(fold.stopReason));
    json.endArray();
    json.key("warnings").value(model.warnings);
    if (calibration && model.bound) {
        json.key("bound");
        writeModelBound(json, *calibration, model, withRows);
    }
    if (withRows) {
        json.key("predictions");
        writeRows(json, model.predictions);
    }
    json.endObject();
}

evaluation::ModelResult readModel(const io::Json &item, const std::string &source,
                                  std::optional<calibration::CalibrationSettings> &calibration)
{
    evaluation::ModelResult model;
    model.name = io::toString(io::member(item, "name"));
    model.title = io::toString(io::member(item, "title"));
    model.hyperparameters = models::regressorHyperparameters(model.name);
    model.hyperparameters.apply(io::member(item, "hyperparameters"), source);
    model.mean = readMetrics(io::member(item, "metrics"));
    model.standardDeviation = readMetrics(io::member(item, "std"));
    model.trainSeconds = io::numberOr(item, "train_seconds", 0.0);
    model.predictSeconds = io::numberOr(item, "predict_seconds", 0.0);
    const auto &perFold = io::toArray(io::member(item, "per_fold"));
    const io::Json *trainSeconds = io::findMember(item, "per_fold_train_seconds");
    const io::Json *predictSeconds = io::findMember(item, "per_fold_predict_seconds");
    const std::vector<std::string> stopReasons = stringsOf(io::findMember(item, "stop_reasons"));
    for (std::size_t index = 0; index < perFold.size(); ++index) {
        evaluation::FoldResult fold;
        fold.fold = static_cast<int>(index);
        fold.metrics = readMetrics(perFold[index]);
        if (trainSeconds && index < io::toArray(*trainSeconds).size())
            fold.trainSeconds = io::toNumber(io::toArray(*trainSeconds)[index]);
        if (predictSeconds && index < io::toArray(*predictSeconds).size())
            fold.predictSeconds = io::toNumber(io::toArray(*predictSeconds)[index]);
        if (index < stopReasons.size())
            fold.stopReason = training::parseStopReason(stopReasons[index]);
        model.folds.push_back(std::move(fold));
    }
    model.warnings = stringsOf(io::findMember(item, "warnings"));
    if (const io::Json *predictions = io::findMember(item, "predictions"))
        model.predictions = readRows(*predictions);
    if (const io::Json *bound = io::findMember(item, "bound"))
        calibration = readModelBound(*bound, model);
    return model;
}

} // namespace

void writeExperimentMembers(io::JsonWriter &json, const evaluation::ExperimentResult &result, bool withRows)
{
    json.key("splits").value(result.splits.size());
    json.key("models").beginArray();
    for (const auto &model : result.models)
        writeModel(json, model, result.calibration, withRows);
    json.endArray();
    json.key("best").value(result.best);
    json.key("significance").beginArray();
    for (const auto &test : result.significance) {
        json.beginObject();
        json.key("model").value(test.model);
        json.key("versus").value(test.versus);
        json.key("test").value(test.test);
        json.key("p_value").value(test.pValue);
        json.key("statistic").value(test.statistic);
        json.key("paired").value(test.metric);
        json.key("pairs").value(test.pairs);
        json.key("reported").value(test.reported);
        json.endObject();
    }
    json.endArray();
    json.key("failures").beginArray();
    for (const auto &failure : result.failures) {
        json.beginObject();
        json.key("model").value(failure.model);
        json.key("message").value(failure.message);
        json.endObject();
    }
    json.endArray();
    json.key("cancelled").value(result.cancelled);
    json.key("seconds").value(result.seconds);
    json.key("warnings").value(result.warnings);
    if (withRows) {
        json.key("actual");
        writeRows(json, result.actual);
    }
}

evaluation::ExperimentResult readExperimentResult(const io::Json &object, const std::string &source)
{
    try {
        evaluation::ExperimentResult result;
        for (const auto &item : io::toArray(io::member(object, "models")))
            result.models.push_back(readModel(item, source, result.calibration));
        const std::size_t splits = io::findMember(object, "splits")
                                       ? static_cast<std::size_t>(io::numberOr(object, "splits", 0))
                                   : result.models.empty() ? 0
                                                           : result.models.front().folds.size();
        if (splits > 1000)
            throw io::InputError("\"splits\" must be at most 1000");
        result.splits.resize(splits);
        result.best = io::toString(io::member(object, "best"));
        for (const auto &item : io::toArray(io::member(object, "significance"))) {
            evaluation::PairedTest test;
            test.model = io::toString(io::member(item, "model"));
            test.versus = io::toString(io::member(item, "versus"));
            test.test = io::toString(io::member(item, "test"));
            test.metric = io::toString(io::member(item, "paired"));
            test.pairs = static_cast<int>(io::numberOr(item, "pairs", 0));
            test.statistic = io::numberOr(item, "statistic", notANumber);
            test.pValue = io::numberOr(item, "p_value", notANumber);
            const io::Json *reported = io::findMember(item, "reported");
            test.reported = reported && io::toBool(*reported);
            result.significance.push_back(test);
        }
        if (const io::Json *failures = io::findMember(object, "failures"))
            for (const auto &item : io::toArray(*failures))
                result.failures.push_back(
                    {io::toString(io::member(item, "model")), io::toString(io::member(item, "message"))});
        result.cancelled = io::toBool(io::member(object, "cancelled"));
        result.seconds = io::numberOr(object, "seconds", 0.0);
        result.warnings = stringsOf(io::findMember(object, "warnings"));
        if (const io::Json *actual = io::findMember(object, "actual"))
            result.actual = readRows(*actual);
        for (const auto &model : result.models)
            if (result.actual.size() != 0 && model.predictions.size() != 0 &&
                model.predictions.size() != result.actual.size())
                throw io::InputError("model '" + model.name + "' has " + std::to_string(model.predictions.size()) +
                                     " predictions for " + std::to_string(result.actual.size()) + " rows");
        for (const auto &model : result.models)
            if (result.actual.size() != 0 && model.bound && model.bound->upperBounds.size() != 0 &&
                model.bound->upperBounds.size() != result.actual.size())
                throw io::InputError("model '" + model.name + "' has " +
                                     std::to_string(model.bound->upperBounds.size()) + " upper bounds for " +
                                     std::to_string(result.actual.size()) + " rows");
        return result;
    } catch (const io::InputError &error) {
        if (!error.file().empty())
            throw;
        throw io::InputError(source, 0, 0, "comparison: " + error.message());
    }
}

} // namespace gpumem::report
