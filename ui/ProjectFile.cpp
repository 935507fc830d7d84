#include "ui/ProjectFile.h"

#include "data/TableLoader.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/JsonValue.h"
#include "io/JsonWriter.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/RegressorRegistry.h"
#include "report/MetricsJson.h"
#include "ui/QtText.h"
#include "ui/WorkbenchState.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <sstream>

namespace gpumem::ui {

namespace {

const char *const formatName = "gpumem-workbench-project";
constexpr int formatVersion = 1;

double numberOrNan(const io::JsonValue &value)
{
    return value.isNull() ? std::nan("") : value.toNumber();
}

void writeComparison(io::JsonWriter &json, const evaluation::ExperimentResult &result)
{
    json.beginObject();
    json.key("splits").value(result.splits.size());
    json.key("best").value(result.best);
    json.key("cancelled").value(result.cancelled);
    json.key("seconds").value(result.seconds);
    json.key("warnings").value(result.warnings);
    json.key("models").beginArray();
    for (const auto &model : result.models) {
        json.beginObject();
        json.key("name").value(model.name);
        json.key("title").value(model.title);
        json.key("hyperparameters");
        model.hyperparameters.writeValues(json);
        json.key("train_seconds").value(model.trainSeconds);
        json.key("predict_seconds").value(model.predictSeconds);
        json.key("mean");
        report::writeMetrics(json, model.mean);
        json.key("standard_deviation");
        report::writeMetrics(json, model.standardDeviation);
        json.key("folds").beginArray();
        for (const auto &fold : model.folds) {
            json.beginObject();
            json.key("fold").value(fold.fold);
            json.key("train_seconds").value(fold.trainSeconds);
            json.key("predict_seconds").value(fold.predictSeconds);
            json.key("metrics");
            report::writeMetrics(json, fold.metrics);
            json.endObject();
        }
        json.endArray();
        json.key("predictions").beginArray();
        for (Eigen::Index row = 0; row < model.predictions.size(); ++row)
            json.value(model.predictions[row]);
        json.endArray();
        json.key("warnings").value(model.warnings);
        json.endObject();
    }
    json.endArray();
    json.key("significance").beginArray();
    for (const auto &test : result.significance) {
        json.beginObject();
        json.key("model").value(test.model);
        json.key("versus").value(test.versus);
        json.key("test").value(test.test);
        json.key("metric").value(test.metric);
        json.key("pairs").value(test.pairs);
        json.key("statistic").value(test.statistic);
        json.key("p_value").value(test.pValue);
        json.key("reported").value(test.reported);
        json.endObject();
    }
    json.endArray();
    json.endObject();
}

std::vector<std::string> readStrings(const io::JsonValue *array)
{
    std::vector<std::string> texts;
    if (array)
        for (const auto &item : array->toArray())
            texts.push_back(item.toString());
    return texts;
}

evaluation::ExperimentResult readComparison(const io::JsonValue &object, const std::string &source)
{
    evaluation::ExperimentResult result;
    result.splits.resize(static_cast<std::size_t>(object.numberOr("splits", 0)));
    result.best = object.at("best").toString();
    result.cancelled = object.at("cancelled").toBool();
    result.seconds = object.numberOr("seconds", 0.0);
    result.warnings = readStrings(object.find("warnings"));
    for (const auto &item : object.at("models").toArray()) {
        const std::string name = item.at("name").toString();
        models::Hyperparameters hyperparameters = models::regressorHyperparameters(name);
        hyperparameters.apply(item.at("hyperparameters"), source);
        evaluation::ModelResult model{name, item.at("title").toString(), hyperparameters, {}, {}, {}, 0.0, 0.0, {}, {}};
        model.trainSeconds = item.numberOr("train_seconds", 0.0);
        model.predictSeconds = item.numberOr("predict_seconds", 0.0);
        model.mean = report::readMetrics(item.at("mean"));
        model.standardDeviation = report::readMetrics(item.at("standard_deviation"));
        for (const auto &foldItem : item.at("folds").toArray()) {
            evaluation::FoldResult fold;
            fold.fold = static_cast<int>(foldItem.numberOr("fold", 0));
            fold.trainSeconds = foldItem.numberOr("train_seconds", 0.0);
            fold.predictSeconds = foldItem.numberOr("predict_seconds", 0.0);
            fold.metrics = report::readMetrics(foldItem.at("metrics"));
            model.folds.push_back(fold);
        }
        const auto &predictions = item.at("predictions").toArray();
        model.predictions.resize(static_cast<Eigen::Index>(predictions.size()));
        for (std::size_t row = 0; row < predictions.size(); ++row)
            model.predictions[static_cast<Eigen::Index>(row)] = numberOrNan(predictions[row]);
        model.warnings = readStrings(item.find("warnings"));
        result.models.push_back(std::move(model));
    }
    for (const auto &item : object.at("significance").toArray()) {
        evaluation::PairedTest test;
        test.model = item.at("model").toString();
        test.versus = item.at("versus").toString();
        test.test = item.at("test").toString();
        test.metric = item.at("metric").toString();
        test.pairs = static_cast<int>(item.numberOr("pairs", 0));
        test.statistic = item.numberOr("statistic", 0.0);
        test.pValue = item.numberOr("p_value", 1.0);
        const io::JsonValue *reported = item.find("reported");
        test.reported = reported && reported->toBool();
        result.significance.push_back(test);
    }
    return result;
}

} // namespace

void writeProjectFile(const QString &path, const WorkbenchState &state)
{
    std::ostringstream text;
    io::JsonWriter json(text);
    json.beginObject();
    json.key("format").value(formatName);
    json.key("version").value(formatVersion);
    json.key("data").beginObject();
    const QString dataPath = state.dataPath();
    json.key("path").value(coreText(dataPath.isEmpty() ? QString() : QFileInfo(dataPath).absoluteFilePath()));
    json.key("relative_path")
        .value(coreText(dataPath.isEmpty()
                            ? QString()
                            : QFileInfo(path).absoluteDir().relativeFilePath(QFileInfo(dataPath).absoluteFilePath())));
    json.key("bad_cell_policy").value(data::badCellPolicyName(state.badCellPolicy()));
    json.key("roles").beginObject();
    if (const auto table = state.table())
        for (std::size_t column = 0; column < table->columnCount() && column < state.roles().size(); ++column)
            json.key(table->column(column).name).value(data::columnRoleName(state.roles()[column]));
    json.endObject();
    json.endObject();
    json.key("preset").value(coreText(state.presetName()));
    json.key("hyperparameters");
    state.hyperparameters().writeValues(json);
    json.key("comparison");
    if (const auto comparison = state.comparison())
        writeComparison(json, *comparison);
    else
        json.null();
    json.endObject();
    text << '\n';
    io::writeFileAtomically(coreText(path), text.str());
}

void readProjectFile(const QString &path, WorkbenchState &state)
{
    const std::string source = coreText(path);
    const io::JsonValue project = io::readJsonFile(source);
    const io::JsonValue *format = project.find("format");
    if (!format || !format->isString() || format->toString() != formatName)
        throw io::InputError(source, 0, 0, "not a workbench project (no \"format\": \"gpumem-workbench-project\")");
    if (project.numberOr("version", 0) > formatVersion)
        throw io::InputError(source, 0, 0,
                             "written by a newer workbench (version " +
                                 std::to_string(static_cast<int>(project.numberOr("version", 0))) + ")");

    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    hyperparameters.apply(project.at("hyperparameters"), source);

    const io::JsonValue &dataObject = project.at("data");
    QString dataPath = QString::fromStdString(dataObject.at("path").toString());
    if (!dataPath.isEmpty() && !QFileInfo::exists(dataPath)) {
        // The project may have moved together with its data: try the path relative to it.
        const QString relative =
            QFileInfo(path).absoluteDir().filePath(QString::fromStdString(dataObject.at("relative_path").toString()));
        if (QFileInfo::exists(relative))
            dataPath = relative;
    }
    std::shared_ptr<const data::Table> table;
    if (!dataPath.isEmpty())
        table = std::make_shared<const data::Table>(data::loadTable(coreText(dataPath)));
    const data::BadCellPolicy policy = data::parseBadCellPolicy(dataObject.at("bad_cell_policy").toString());

    std::vector<data::ColumnRole> roles;
    if (table) {
        roles = data::defaultRoles(*table);
        for (const auto &[name, value] : dataObject.at("roles").toObject()) {
            const auto column = table->columnIndex(name);
            if (!column)
                throw io::InputError(source, 0, 0,
                                     "the project names column " + io::quoteForMessage(name) + ", which " +
                                         coreText(dataPath) + " lacks");
            const std::string &roleName = value.toString();
            bool known = false;
            for (auto role : {data::ColumnRole::Feature, data::ColumnRole::Target, data::ColumnRole::Sequence,
                              data::ColumnRole::Ignored})
                if (data::columnRoleName(role) == roleName) {
                    roles[*column] = role;
                    known = true;
                }
            if (!known)
                throw io::InputError(source, 0, 0, "unknown role " + io::quoteForMessage(roleName));
        }
    }
    std::shared_ptr<const evaluation::ExperimentResult> comparison;
    if (const io::JsonValue *object = project.find("comparison"); object && !object->isNull())
        comparison = std::make_shared<const evaluation::ExperimentResult>(readComparison(*object, source));

    // Everything is read and checked: only now does the state change.
    state.setBadCellPolicy(policy);
    state.setTable(table, dataPath);
    if (table)
        state.setRoles(roles);
    state.setPresetName(QString::fromStdString(project.at("preset").toString()));
    state.setHyperparameters(hyperparameters);
    std::shared_ptr<const data::Dataset> dataset;
    if (comparison && table) {
        try {
            std::vector<std::string> warnings;
            dataset = state.buildDataset(warnings);
        } catch (const std::exception &) {
            // Without a usable dataset the comparison still shows its metrics, only not per-row charts.
        }
    }
    state.setComparison(comparison, dataset);
}

} // namespace gpumem::ui
