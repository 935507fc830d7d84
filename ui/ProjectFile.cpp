// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ProjectFile.h"

#include "data/TableLoader.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/JsonValue.h"
#include "io/JsonWriter.h"
#include "io/RegularFile.h"
#include "io/Sha256.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "report/ExperimentJson.h"
#include "runs/RunRecord.h"
#include "ui/QtText.h"
#include "ui/WorkbenchState.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <sstream>

namespace gpumem::ui {

namespace {

const char *const formatName = "gpumem-workbench-project";
constexpr int formatVersion = 2;

// The SHA-256 of the file at path, read in pieces so that a large CSV is never held whole.
std::string fileDigest(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    io::Sha256 digest;
    while (!file.atEnd()) {
        const QByteArray piece = file.read(1 << 20);
        digest.update(piece.constData(), static_cast<std::size_t>(piece.size()));
    }
    return digest.hexDigest();
}

} // namespace

QString withProjectSuffix(const QString &path)
{
    return path.endsWith(projectSuffix, Qt::CaseInsensitive) ? path : path + projectSuffix;
}

bool isProjectPath(const QString &path)
{
    return path.endsWith(projectSuffix, Qt::CaseInsensitive);
}

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
    // The digest tells a later open whether the data still is what this project was made on.
    json.key("sha256").value(dataPath.isEmpty() ? std::string() : fileDigest(dataPath));
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
    if (const auto comparison = state.comparison()) {
        // The comparison report's own members, with the rows the charts need: one schema, one reader.
        json.beginObject();
        report::writeExperimentMembers(json, *comparison, true);
        json.endObject();
    } else {
        json.null();
    }
    json.endObject();
    // Every training run, in the one JSON form of a run record.
    nlohmann::ordered_json project = nlohmann::ordered_json::parse(text.str());
    project["runs"] = state.runs();
    io::writeFileAtomically(coreText(path),
                            project.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + '\n');
}

QStringList readProjectFile(const QString &path, WorkbenchState &state)
{
    QStringList notes;
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
        if (QFileInfo::exists(relative)) {
            notes << QObject::tr("The data file %1 was not found; using %2, at the same place relative to the project.")
                         .arg(dataPath, QDir::cleanPath(relative));
            dataPath = relative;
        } else {
            throw io::InputError(source, 0, 0,
                                 "the data file " + coreText(dataPath) +
                                     " is missing, and is not beside the project either; move it back or open the "
                                     "data and save the project again");
        }
    }
    if (const io::JsonValue *recorded = dataObject.find("sha256"); recorded && !recorded->toString().empty() &&
                                                                   !dataPath.isEmpty() &&
                                                                   fileDigest(dataPath) != recorded->toString())
        notes << QObject::tr("The data file %1 changed since the project was saved: its comparison and "
                             "hyperparameters were made on other data.")
                     .arg(QFileInfo(dataPath).fileName());
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
    // Version 1 stored comparisons in a form of its own; they are left out, to be run again.
    std::shared_ptr<const evaluation::ExperimentResult> comparison;
    if (const io::JsonValue *object = project.find("comparison");
        object && !object->isNull() && project.numberOr("version", 0) >= 2)
        comparison =
            std::make_shared<const evaluation::ExperimentResult>(report::readExperimentResult(*object, source));

    // Projects written before runs were kept have none.
    std::vector<runs::RunRecord> runs;
    {
        const nlohmann::ordered_json whole =
            nlohmann::ordered_json::parse(io::readRegularFile(source, io::maxJsonFileBytes), nullptr, false);
        if (const auto found = whole.find("runs"); whole.is_object() && found != whole.end()) {
            if (!found->is_array())
                throw io::InputError(source, 0, 0, "\"runs\" is not an array");
            for (const auto &run : *found) {
                try {
                    runs.push_back(run.get<runs::RunRecord>());
                } catch (const std::exception &error) {
                    throw io::InputError(source, 0, 0,
                                         "run " + std::to_string(runs.size() + 1) + ": " +
                                             (dynamic_cast<const io::InputError *>(&error)
                                                  ? static_cast<const io::InputError &>(error).message()
                                                  : std::string(error.what())));
                }
            }
        }
    }

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
    state.setRuns(std::move(runs));
    return notes;
}

} // namespace gpumem::ui
