// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/RunRecord.h"

#include "io/InputError.h"
#include "training/StopReasonText.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace gpumem::runs {

namespace {

using Json = nlohmann::ordered_json;

constexpr double notANumber = std::numeric_limits<double>::quiet_NaN();

// nlohmann writes NaN and infinities as null too; writing it explicitly keeps the intent visible.
Json number(double value)
{
    return std::isfinite(value) ? Json(value) : Json(nullptr);
}

// A member that is null (written for NaN) or missing reads as NaN.
double numberOf(const Json &value, const std::string &name)
{
    if (value.is_null())
        return notANumber;
    if (!value.is_number())
        throw io::InputError("run record: " + name + " is not a number");
    return value.get<double>();
}

const Json &member(const Json &object, const char *name)
{
    const auto found = object.find(name);
    if (found == object.end())
        throw io::InputError(std::string("run record: the member '") + name + "' is missing");
    return *found;
}

std::string textOf(const Json &object, const char *name)
{
    const Json &value = member(object, name);
    if (!value.is_string())
        throw io::InputError(std::string("run record: '") + name + "' is not a string");
    return value.get<std::string>();
}

std::int64_t wholeOf(const Json &value, const std::string &name)
{
    if (!value.is_number_integer())
        throw io::InputError("run record: " + name + " is not a whole number");
    return value.get<std::int64_t>();
}

std::size_t countOf(const Json &object, const char *name)
{
    const std::int64_t value = wholeOf(member(object, name), name);
    if (value < 0)
        throw io::InputError(std::string("run record: '") + name + "' is negative");
    return static_cast<std::size_t>(value);
}

Json metricsJson(const std::optional<evaluation::RegressionMetrics> &metrics)
{
    if (!metrics)
        return nullptr;
    Json object = Json::object();
    for (const auto &description : evaluation::metricDescriptions())
        object[description.key] = number((*metrics).*description.member);
    return object;
}

std::optional<evaluation::RegressionMetrics> metricsOf(const Json &value, const std::string &name)
{
    if (value.is_null())
        return std::nullopt;
    if (!value.is_object())
        throw io::InputError("run record: " + name + " is not an object");
    // A metric added after the file was written reads as missing (NaN), never as 0.
    evaluation::RegressionMetrics metrics = evaluation::filledMetrics(notANumber);
    for (const auto &description : evaluation::metricDescriptions())
        if (const auto found = value.find(description.key); found != value.end())
            metrics.*description.member = numberOf(*found, name + "." + description.key);
    return metrics;
}

Json hyperparameterJson(const models::HyperparameterValue &value)
{
    return std::visit([](const auto &held) { return Json(held); }, value);
}

models::HyperparameterValue hyperparameterOf(const Json &value, const std::string &name)
{
    if (value.is_boolean())
        return value.get<bool>();
    if (value.is_number_integer())
        return value.get<std::int64_t>();
    if (value.is_number_float())
        return value.get<double>();
    if (value.is_string())
        return value.get<std::string>();
    throw io::InputError("run record: hyperparameter '" + name + "' is neither a number, a boolean nor a string");
}

const Json &arrayOf(const Json &object, const char *name)
{
    const Json &value = member(object, name);
    if (!value.is_array())
        throw io::InputError(std::string("run record: '") + name + "' is not an array");
    return value;
}

// Each point is an array of a fixed length: [epoch, …].
const Json &pointOf(const Json &value, std::size_t length, const char *name)
{
    if (!value.is_array() || value.size() != length)
        throw io::InputError(std::string("run record: every point of '") + name + "' needs " + std::to_string(length) +
                             " numbers");
    return value;
}

int epochOf(const Json &value, const char *name)
{
    const std::int64_t epoch = wholeOf(value, std::string(name) + " epoch");
    if (epoch < 0 || epoch > std::numeric_limits<int>::max())
        throw io::InputError(std::string("run record: an epoch of '") + name + "' is out of range");
    return static_cast<int>(epoch);
}

} // namespace

const models::HyperparameterValue *RunRecord::hyperparameter(const std::string &wanted) const
{
    for (const auto &[key, value] : hyperparameters)
        if (key == wanted)
            return &value;
    return nullptr;
}

std::vector<std::pair<std::string, models::HyperparameterValue>>
hyperparameterValues(const models::Hyperparameters &hyperparameters)
{
    std::vector<std::pair<std::string, models::HyperparameterValue>> values;
    for (const auto &spec : hyperparameters.specs()) {
        switch (spec.type) {
        case models::HyperparameterType::Integer:
            values.emplace_back(spec.name, hyperparameters.integer(spec.name));
            break;
        case models::HyperparameterType::Real: values.emplace_back(spec.name, hyperparameters.real(spec.name)); break;
        case models::HyperparameterType::Boolean:
            values.emplace_back(spec.name, hyperparameters.boolean(spec.name));
            break;
        case models::HyperparameterType::Choice:
            values.emplace_back(spec.name, hyperparameters.choice(spec.name));
            break;
        }
    }
    return values;
}

BatchPoint batchPoint(const training::BatchProgress &progress)
{
    return {progress.epoch, progress.batch, progress.batches, progress.trainLoss};
}

EpochPoint epochPoint(const training::EpochProgress &progress)
{
    // The trainer marks "no validation" with a negative loss; the record says NaN, which JSON writes as null.
    return {
        progress.epoch,        progress.trainLoss, progress.validationLoss < 0.0 ? notANumber : progress.validationLoss,
        progress.learningRate, progress.trainRmse, progress.validationRmse};
}

std::vector<BatchPoint> thinnedBatches(const std::vector<BatchPoint> &points)
{
    if (points.size() <= maxBatchPoints)
        return points;
    std::vector<BatchPoint> kept;
    kept.reserve(maxBatchPoints);
    // Point k of the kept ones is the one at k·(n-1)/(m-1): the first and the last stay.
    const std::size_t last = points.size() - 1;
    for (std::size_t index = 0; index < maxBatchPoints; ++index)
        kept.push_back(points[index * last / (maxBatchPoints - 1)]);
    return kept;
}

double hyperparameterValueNumber(const models::HyperparameterValue &value)
{
    if (const auto *whole = std::get_if<std::int64_t>(&value))
        return static_cast<double>(*whole);
    if (const auto *real = std::get_if<double>(&value))
        return *real;
    if (const auto *flag = std::get_if<bool>(&value))
        return *flag ? 1.0 : 0.0;
    return std::nan("");
}

std::string hyperparameterValueText(const models::HyperparameterValue &value)
{
    if (const auto *whole = std::get_if<std::int64_t>(&value))
        return std::to_string(*whole);
    if (const auto *flag = std::get_if<bool>(&value))
        return *flag ? "true" : "false";
    if (const auto *text = std::get_if<std::string>(&value))
        return *text;
    std::ostringstream stream;
    stream.precision(6);
    stream << std::get<double>(value);
    return stream.str();
}

void to_json(nlohmann::ordered_json &json, const RunRecord &record)
{
    json = Json::object();
    json["name"] = record.name;
    json["model"] = record.model;
    Json values = Json::object();
    for (const auto &[name, value] : record.hyperparameters)
        values[name] = hyperparameterJson(value);
    json["hyperparameters"] = std::move(values);
    json["seed"] = record.seed;
    json["seconds"] = number(record.seconds);
    json["stop_reason"] = training::stopReasonName(record.stopReason);
    json["message"] = record.message;
    json["best_epoch"] = record.bestEpoch;
    json["train_rows"] = record.trainRows;
    json["validation_rows"] = record.validationRows;
    json["train_metrics"] = metricsJson(record.trainMetrics);
    json["validation_metrics"] = metricsJson(record.validationMetrics);
    Json epochs = Json::array();
    for (const auto &point : record.epochs)
        epochs.push_back(
            Json::array({point.epoch, number(point.trainLoss), number(point.validationLoss), number(point.learningRate),
                         number(point.trainRmse), number(point.validationRmse)}));
    json["epochs"] = std::move(epochs);
    Json batches = Json::array();
    for (const auto &point : record.batches)
        batches.push_back(Json::array({point.epoch, point.batch, point.batches, number(point.trainLoss)}));
    json["batches"] = std::move(batches);
    json["model_folder"] = record.modelFolder;
    json["dataset"] = record.dataset;
}

void from_json(const nlohmann::ordered_json &json, RunRecord &record)
{
    if (!json.is_object())
        throw io::InputError("run record: not a JSON object");
    RunRecord read;
    read.name = textOf(json, "name");
    read.model = textOf(json, "model");
    const Json &values = member(json, "hyperparameters");
    if (!values.is_object())
        throw io::InputError("run record: 'hyperparameters' is not an object");
    for (const auto &[name, value] : values.items())
        read.hyperparameters.emplace_back(name, hyperparameterOf(value, name));
    const Json &seed = member(json, "seed");
    if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<std::int64_t>() >= 0))
        throw io::InputError("run record: 'seed' is not a whole number");
    read.seed = seed.get<std::uint64_t>();
    read.seconds = numberOf(member(json, "seconds"), "seconds");
    read.stopReason = training::parseStopReason(textOf(json, "stop_reason"));
    read.message = textOf(json, "message");
    read.bestEpoch = epochOf(member(json, "best_epoch"), "best_epoch");
    read.trainRows = countOf(json, "train_rows");
    read.validationRows = countOf(json, "validation_rows");
    read.trainMetrics = metricsOf(member(json, "train_metrics"), "train_metrics");
    read.validationMetrics = metricsOf(member(json, "validation_metrics"), "validation_metrics");
    for (const Json &value : arrayOf(json, "epochs")) {
        // Records written before the errors in MiB hold four numbers a point.
        const bool withRmse = value.is_array() && value.size() == 6;
        const Json &point = pointOf(value, withRmse ? 6 : 4, "epochs");
        EpochPoint epoch{epochOf(point[0], "epochs"), numberOf(point[1], "epochs"), numberOf(point[2], "epochs"),
                         numberOf(point[3], "epochs")};
        if (withRmse) {
            epoch.trainRmse = numberOf(point[4], "epochs");
            epoch.validationRmse = numberOf(point[5], "epochs");
        }
        read.epochs.push_back(epoch);
    }
    const Json &batches = arrayOf(json, "batches");
    if (batches.size() > maxBatchPoints)
        throw io::InputError("run record: more than " + std::to_string(maxBatchPoints) + " batch points");
    for (const Json &value : batches) {
        const Json &point = pointOf(value, 4, "batches");
        read.batches.push_back({epochOf(point[0], "batches"), wholeOf(point[1], "batches"),
                                wholeOf(point[2], "batches"), numberOf(point[3], "batches")});
    }
    read.modelFolder = textOf(json, "model_folder");
    if (json.contains("dataset"))
        read.dataset = textOf(json, "dataset");
    record = std::move(read);
}

std::optional<std::size_t> lowestRmse(const std::vector<RunRecord> &records)
{
    std::optional<std::size_t> best;
    double bestRmse = 0.0;
    for (std::size_t index = 0; index < records.size(); ++index) {
        const RunRecord &record = records[index];
        const auto &metrics = record.validationMetrics ? record.validationMetrics : record.trainMetrics;
        if (metrics && (!best || metrics->rmse < bestRmse)) {
            best = index;
            bestRmse = metrics->rmse;
        }
    }
    return best;
}

} // namespace gpumem::runs
