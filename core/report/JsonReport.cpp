// The comparison report as JSON: the schema other tools read (docs/comparison-report.md).
#include "report/ComparisonReport.h"

#include "io/JsonWriter.h"
#include "models/RegressorRegistry.h"
#include "report/MetricsJson.h"
#include "runtime/LibraryVersions.h"
#include "training/TrainingProgress.h"

namespace gpumem::report {

namespace {

void writeModel(io::JsonWriter &json, const evaluation::ModelResult &model)
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
    json.key("stop_reasons").beginArray();
    for (const auto &fold : model.folds)
        json.value(training::stopReasonName(fold.stopReason));
    json.endArray();
    json.key("warnings").value(model.warnings);
    json.endObject();
}

} // namespace

void writeJsonReport(std::ostream &out, const ComparisonContext &context, const evaluation::ExperimentResult &result)
{
    io::JsonWriter json(out);
    json.beginObject();
    json.key("dataset").value(context.dataset);
    json.key("target").value(context.target);
    json.key("rows").value(context.rows);
    json.key("features").value(context.features);
    json.key("folds").value(context.folds);
    json.key("test_fraction").value(context.testFraction);
    json.key("seed").value(static_cast<std::int64_t>(context.seed));
    json.key("models").beginArray();
    for (const auto &model : result.models)
        writeModel(json, model);
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
    runtime::writeLibraryVersions(json);
    json.endObject();
    out << '\n';
}

} // namespace gpumem::report
