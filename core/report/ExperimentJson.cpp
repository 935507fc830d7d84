// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/ExperimentJson.h"

#include "io/InputError.h"
#include "models/RegressorRegistry.h"
#include "report/BoundJson.h"
#include "report/ExplanationJson.h"
#include "report/MetricsJson.h"
#include "report/RowValuesJson.h"
#include "training/StopReasonText.h"

#include <limits>
#include <optional>

namespace gpumem::report {

namespace {

constexpr double notANumber = std::numeric_limits<double>::quiet_NaN();

// The strings of an optional array member: nothing when the file predates it.
std::vector<std::string> stringsOf(const io::Json *array)
{
    return array ? io::toStrings(*array) : std::vector<std::string>{};
}

// One item of "models". Its bound needs the comparison's calibration settings,
// which the result holds once for all models.
io::Json modelJson(const evaluation::ModelResult &model,
                   const std::optional<calibration::CalibrationSettings> &calibration, bool withRows)
{
    io::Json perFold = io::Json::array();
    io::Json trainSeconds = io::Json::array();
    io::Json predictSeconds = io::Json::array();
    io::Json stopReasons = io::Json::array();
    io::Json repetitions = io::Json::array();
    for (const auto &fold : model.folds) {
        perFold.push_back(fold.metrics);
        repetitions.push_back(fold.repetition);
        trainSeconds.push_back(fold.trainSeconds);
        predictSeconds.push_back(fold.predictSeconds);
        stopReasons.push_back(training::stopReasonName(fold.stopReason));
    }
    io::Json json{{"name", model.name},
                  {"title", model.title},
                  {"library", models::regressorLibrary(model.name)},
                  {"hyperparameters", model.hyperparameters},
                  {"metrics", model.mean},
                  {"std", model.standardDeviation},
                  {"repetition_std", model.repetitionSpread},
                  {"per_fold", std::move(perFold)},
                  {"per_fold_repetition", std::move(repetitions)},
                  {"train_seconds", model.trainSeconds},
                  {"predict_seconds", model.predictSeconds},
                  {"per_fold_train_seconds", std::move(trainSeconds)},
                  {"per_fold_predict_seconds", std::move(predictSeconds)},
                  {"stop_reasons", std::move(stopReasons)},
                  {"warnings", model.warnings}};
    if (calibration && model.bound)
        json["bound"] = modelBoundJson(*calibration, model, withRows);
    if (withRows)
        json["predictions"] = rowValuesJson(model.predictions);
    return json;
}

evaluation::ModelResult readModel(const io::Json &item, const std::string &source,
                                  std::optional<calibration::CalibrationSettings> &calibration)
{
    evaluation::ModelResult model;
    model.name = io::toString(io::member(item, "name"));
    model.title = io::toString(io::member(item, "title"));
    model.hyperparameters = models::regressorHyperparameters(model.name);
    model.hyperparameters.apply(io::member(item, "hyperparameters"), source);
    model.mean = io::member(item, "metrics").get<evaluation::RegressionMetrics>();
    model.standardDeviation = io::member(item, "std").get<evaluation::RegressionMetrics>();
    // Files from before repeated cross-validation had one repetition: no spread over repetitions.
    if (const io::Json *spread = io::findMember(item, "repetition_std"))
        model.repetitionSpread = spread->get<evaluation::RegressionMetrics>();
    model.trainSeconds = io::numberOr(item, "train_seconds", 0.0);
    model.predictSeconds = io::numberOr(item, "predict_seconds", 0.0);
    const auto &perFold = io::toArray(io::member(item, "per_fold"));
    const io::Json *trainSeconds = io::findMember(item, "per_fold_train_seconds");
    const io::Json *predictSeconds = io::findMember(item, "per_fold_predict_seconds");
    const std::vector<std::string> stopReasons = stringsOf(io::findMember(item, "stop_reasons"));
    const io::Json *repetitions = io::findMember(item, "per_fold_repetition");
    for (std::size_t index = 0; index < perFold.size(); ++index) {
        evaluation::FoldResult fold;
        fold.fold = static_cast<int>(index);
        fold.metrics = perFold[index].get<evaluation::RegressionMetrics>();
        if (trainSeconds && index < io::toArray(*trainSeconds).size())
            fold.trainSeconds = io::toNumber(io::toArray(*trainSeconds)[index]);
        if (predictSeconds && index < io::toArray(*predictSeconds).size())
            fold.predictSeconds = io::toNumber(io::toArray(*predictSeconds)[index]);
        if (index < stopReasons.size())
            fold.stopReason = training::parseStopReason(stopReasons[index]);
        if (repetitions && index < io::toArray(*repetitions).size())
            fold.repetition = static_cast<int>(
                io::toWholeNumber(io::toArray(*repetitions)[index], 0, 999, "\"per_fold_repetition\""));
        model.folds.push_back(std::move(fold));
    }
    model.warnings = stringsOf(io::findMember(item, "warnings"));
    if (const io::Json *predictions = io::findMember(item, "predictions"))
        model.predictions = readRowValues(*predictions);
    if (const io::Json *bound = io::findMember(item, "bound"))
        calibration = readModelBound(*bound, model);
    return model;
}

// Checks that every model's rows match the result's: a project file is read from a user.
void checkRowCounts(const evaluation::ExperimentResult &result)
{
    if (result.actual.size() == 0)
        return;
    const auto mismatch = [&](const evaluation::ModelResult &model, Eigen::Index count, const char *what) {
        return io::InputError("model '" + model.name + "' has " + std::to_string(count) + " " + what + " for " +
                              std::to_string(result.actual.size()) + " rows");
    };
    for (const auto &model : result.models)
        if (model.predictions.size() != 0 && model.predictions.size() != result.actual.size())
            throw mismatch(model, model.predictions.size(), "predictions");
    for (const auto &model : result.models)
        if (model.bound && model.bound->upperBounds.size() != 0 &&
            model.bound->upperBounds.size() != result.actual.size())
            throw mismatch(model, model.bound->upperBounds.size(), "upper bounds");
}

} // namespace

io::Json experimentJson(const evaluation::ExperimentResult &result, const ExperimentJsonOptions &options)
{
    io::Json models = io::Json::array();
    for (const auto &model : result.models)
        models.push_back(modelJson(model, result.calibration, options.withRows));
    io::Json json{{"splits", result.splits.size()},      {"repeats", result.repeats},
                  {"models", std::move(models)},         {"best", result.best},
                  {"significance", result.significance}, {"failures", result.failures},
                  {"cancelled", result.cancelled},       {"seconds", result.seconds},
                  {"warnings", result.warnings}};
    if (options.withRows)
        json["actual"] = rowValuesJson(result.actual);
    // Only a comparison that explained its models has the member: the others' reports stay as they were.
    if (!result.inputs.empty())
        json["explanation"] = explanationJson(result);
    return json;
}

evaluation::ExperimentResult readExperimentResult(const io::Json &object, const std::string &source)
{
    try {
        evaluation::ExperimentResult result;
        for (const auto &item : io::toArray(io::member(object, "models")))
            result.models.push_back(readModel(item, source, result.calibration));
        // Read as a whole number in range: converting -1 or 1e300 to a count would be undefined.
        const io::Json *storedSplits = io::findMember(object, "splits");
        const std::size_t splits =
            storedSplits            ? static_cast<std::size_t>(io::toWholeNumber(*storedSplits, 0, 1000, "\"splits\""))
            : result.models.empty() ? 0
                                    : result.models.front().folds.size();
        if (splits > 1000)
            throw io::InputError("\"splits\" must be at most 1000");
        result.splits.resize(splits);
        if (const io::Json *repeats = io::findMember(object, "repeats"))
            result.repeats = static_cast<int>(io::toWholeNumber(*repeats, 1, 1000, "\"repeats\""));
        if (splits % static_cast<std::size_t>(result.repeats) != 0)
            throw io::InputError("\"repeats\" must divide \"splits\"");
        result.best = io::toString(io::member(object, "best"));
        result.significance =
            io::toArray(io::member(object, "significance")).get<std::vector<evaluation::PairedTest>>();
        if (const io::Json *failures = io::findMember(object, "failures"))
            result.failures = io::toArray(*failures).get<std::vector<evaluation::ModelFailure>>();
        result.cancelled = io::toBool(io::member(object, "cancelled"));
        result.seconds = io::numberOr(object, "seconds", 0.0);
        result.warnings = stringsOf(io::findMember(object, "warnings"));
        if (const io::Json *actual = io::findMember(object, "actual"))
            result.actual = readRowValues(*actual);
        if (const io::Json *explanation = io::findMember(object, "explanation"))
            readExplanation(*explanation, result);
        checkRowCounts(result);
        return result;
    } catch (const io::InputError &error) {
        if (!error.file().empty())
            throw;
        throw io::InputError(source, 0, 0, "comparison: " + error.markedMessage());
    }
}

} // namespace gpumem::report

namespace gpumem::evaluation {

void to_json(io::Json &json, const ExperimentResult &result)
{
    json = report::experimentJson(result);
}

void to_json(io::Json &json, const PairedTest &test)
{
    json = io::Json{{"model", test.model},    {"versus", test.versus},       {"test", test.test},
                    {"p_value", test.pValue}, {"statistic", test.statistic}, {"paired", test.metric},
                    {"pairs", test.pairs},    {"reported", test.reported}};
}

void from_json(const io::Json &json, PairedTest &test)
{
    test.model = io::toString(io::member(json, "model"));
    test.versus = io::toString(io::member(json, "versus"));
    test.test = io::toString(io::member(json, "test"));
    test.metric = io::toString(io::member(json, "paired"));
    const io::Json *pairs = io::findMember(json, "pairs");
    test.pairs =
        pairs ? static_cast<int>(io::toWholeNumber(*pairs, 0, std::numeric_limits<int>::max(), "\"pairs\"")) : 0;
    test.statistic = io::numberOr(json, "statistic", report::notANumber);
    test.pValue = io::numberOr(json, "p_value", report::notANumber);
    const io::Json *reported = io::findMember(json, "reported");
    test.reported = reported && io::toBool(*reported);
}

void to_json(io::Json &json, const ModelFailure &failure)
{
    json = io::Json{{"model", failure.model}, {"message", failure.message}};
}

void from_json(const io::Json &json, ModelFailure &failure)
{
    failure.model = io::toString(io::member(json, "model"));
    failure.message = io::toString(io::member(json, "message"));
}

} // namespace gpumem::evaluation
