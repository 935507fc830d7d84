// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/ProjectFile.h"

#include "calibration/CalibrationJson.h"
#include "data/TableLoader.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "io/Sha256.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "report/ExperimentJson.h"
#include "runs/RunRecord.h"
#include "ui/app/WorkbenchState.h"
#include "ui/widgets/QtText.h"
#include "workflows/CompareWorkflow.h"

#include <QDir>
#include <QFileInfo>

namespace gpumem::ui {

namespace {

const char *const formatName = "gpumem-workbench-project";
constexpr int formatVersion = 2;

// The SHA-256 of the data file at path, or nothing when it cannot be read (a save
// still records where the data was).
std::string dataDigestOrNothing(const QString &path)
{
    try {
        return io::sha256File(coreText(path));
    } catch (const io::InputError &) {
        return {};
    }
}

// A folder name for a run: its name with what a file system may refuse replaced ("run 3" → "run-3").
QString folderNameOf(const std::string &runName)
{
    QString name;
    for (const QChar c : QString::fromStdString(runName))
        name += c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') ? c : QLatin1Char('-');
    while (name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    return name.isEmpty() ? QStringLiteral("run") : name;
}

// The runs as the project keeps them: model folders relative to the project's folder.
std::vector<runs::RunRecord> runsRelativeTo(const QString &projectPath, std::vector<runs::RunRecord> runs)
{
    const QDir projectFolder = QFileInfo(projectPath).absoluteDir();
    for (auto &run : runs)
        if (!run.modelFolder.empty())
            run.modelFolder = coreText(projectFolder.relativeFilePath(QString::fromStdString(run.modelFolder)));
    return runs;
}

} // namespace

QString runModelsFolder(const QString &projectPath)
{
    const QFileInfo project(withProjectSuffix(projectPath));
    const QString name = project.fileName();
    return project.absoluteDir().filePath(name.left(name.size() - projectSuffix.size()) + QStringLiteral(".models"));
}

int saveRunModelsWithProject(const QString &projectPath, WorkbenchState &state)
{
    const QDir folder(runModelsFolder(projectPath));
    int saved = 0;
    for (std::size_t index = 0; index < state.runs().size(); ++index) {
        const auto model = state.runModel(index);
        if (!model || !state.runs()[index].modelFolder.empty())
            continue;
        if (!folder.exists() && !QDir().mkpath(folder.path()))
            throw io::InputError(coreText(folder.path()), 0, 0, "cannot create the folder for the runs' models");
        // A new name for each: a folder already there may be another run's, saved before.
        const QString base = folderNameOf(state.runs()[index].name);
        QString directory = folder.filePath(base);
        for (int suffix = 2; QFileInfo::exists(directory); ++suffix)
            directory = folder.filePath(base + QLatin1Char('-') + QString::number(suffix));
        calibration::saveCalibratedModel(*model, std::nullopt, coreText(directory));
        state.setRunModelFolder(index, coreText(directory));
        ++saved;
    }
    return saved;
}

QString withProjectSuffix(const QString &path)
{
    return path.endsWith(projectSuffix, Qt::CaseInsensitive) ? path : path + projectSuffix;
}

bool isProjectPath(const QString &path)
{
    return path.endsWith(projectSuffix, Qt::CaseInsensitive);
}

namespace {

// The "data" member: where the data file is, what it held, and how its columns are used.
io::Json dataJson(const QString &projectPath, const WorkbenchState &state)
{
    const QString dataPath = state.dataPath();
    const QString absolutePath = dataPath.isEmpty() ? QString() : QFileInfo(dataPath).absoluteFilePath();
    io::Json roles = io::Json::object();
    if (const auto table = state.table())
        for (std::size_t column = 0; column < table->columnCount() && column < state.roles().size(); ++column)
            roles[table->column(column).name] = data::columnRoleName(state.roles()[column]);
    return io::Json{
        {"path", coreText(absolutePath)},
        {"relative_path",
         coreText(dataPath.isEmpty() ? QString()
                                     : QFileInfo(projectPath).absoluteDir().relativeFilePath(absolutePath))},
        // The digest tells a later open whether the data still is what this project was made on.
        {"sha256", dataPath.isEmpty() ? std::string() : dataDigestOrNothing(dataPath)},
        {"bad_cell_policy", data::badCellPolicyName(state.badCellPolicy())},
        {"roles", std::move(roles)}};
}

// The whole project as one document.
io::Json projectJson(const QString &path, const WorkbenchState &state)
{
    io::Json project{{"format", formatName},
                     {"version", formatVersion},
                     {"data", dataJson(path, state)},
                     {"preset", coreText(state.presetName())},
                     {"hyperparameters", state.hyperparameters()}};
    // The comparison report's own members, with the rows the charts need: one schema, one reader.
    const auto comparison = state.comparison();
    project["comparison"] = comparison ? report::experimentJson(*comparison, {/*withRows=*/true}) : io::Json();
    if (comparison)
        project["comparison_context"] = state.comparisonContext();
    // Every training run, in the one JSON form of a run record.
    project["runs"] = runsRelativeTo(path, state.runs());
    return project;
}

} // namespace

void writeProjectFile(const QString &path, const WorkbenchState &state)
{
    io::writeFileAtomically(coreText(path), io::jsonDocumentText(projectJson(path, state)));
}

namespace {

// Reads the project's comparison and its report header into content. Version 1
// stored comparisons in a form of its own; they are left out, to be run again.
void readComparison(const io::Json &project, const std::string &source, ProjectContent &content)
{
    std::shared_ptr<const evaluation::ExperimentResult> &comparison = content.comparison;
    if (const io::Json *object = io::findMember(project, "comparison");
        object && !object->is_null() && io::numberOr(project, "version", 0) >= 2)
        comparison =
            std::make_shared<const evaluation::ExperimentResult>(report::readExperimentResult(*object, source));
    if (const io::Json *stored = io::findMember(project, "comparison_context"); stored && comparison) {
        try {
            content.comparisonContext = stored->get<report::ComparisonContext>();
        } catch (const io::InputError &error) {
            throw io::InputError(source, 0, 0, "\"comparison_context\": " + error.message());
        }
    } else if (comparison) {
        content.notes << QObject::tr("The comparison was saved before projects kept its seed: its reports name seed 0 "
                                     "until it is run again.");
        if (const auto &splits = comparison->splits; splits.size() == 1 && !splits.front().test.empty()) {
            // A hold-out's share, worked back from its split.
            report::ComparisonContext holdOut;
            holdOut.testFraction = static_cast<double>(splits.front().test.size()) /
                                   static_cast<double>(splits.front().test.size() + splits.front().train.size());
            content.comparisonContext = holdOut;
        }
    }
}

ProjectContent readProject(const QString &path, runtime::ProgressObserver *progress,
                           const runtime::OperationControl *control)
{
    ProjectContent content;
    QStringList &notes = content.notes;
    const std::string source = coreText(path);
    const io::Json project = io::readJsonFile(source);
    const io::Json *format = io::findMember(project, "format");
    if (!format || !format->is_string() || io::toString(*format) != formatName)
        throw io::InputError(source, 0, 0, "not a workbench project (no \"format\": \"gpumem-workbench-project\")");
    if (io::numberOr(project, "version", 0) > formatVersion)
        throw io::InputError(source, 0, 0,
                             "written by a newer workbench (version " +
                                 std::to_string(static_cast<int>(io::numberOr(project, "version", 0))) + ")");

    // Projects saved before the ensemble setting existed trained one network; later ones name it.
    content.hyperparameters.set("ensemble", std::int64_t{1});
    content.hyperparameters.apply(io::member(project, "hyperparameters"), source);
    content.preset = QString::fromStdString(io::toString(io::member(project, "preset")));

    const io::Json &dataObject = io::member(project, "data");
    QString dataPath = QString::fromStdString(io::toString(io::member(dataObject, "path")));
    if (!dataPath.isEmpty() && !QFileInfo::exists(dataPath)) {
        // The project may have moved together with its data: try the path relative to it.
        const QString relative = QFileInfo(path).absoluteDir().filePath(
            QString::fromStdString(io::toString(io::member(dataObject, "relative_path"))));
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
    content.dataPath = dataPath;
    std::shared_ptr<const data::Table> &table = content.table;
    // Loaded before it is hashed: the loader refuses a FIFO or device at once and can be cancelled.
    if (!dataPath.isEmpty())
        table = std::make_shared<const data::Table>(data::loadTable(coreText(dataPath), {}, progress, control));
    if (const io::Json *recorded = io::findMember(dataObject, "sha256");
        recorded && !io::toString(*recorded).empty() && !dataPath.isEmpty() &&
        io::sha256File(coreText(dataPath)) != io::toString(*recorded))
        notes << QObject::tr("The data file %1 changed since the project was saved: its comparison and "
                             "hyperparameters were made on other data.")
                     .arg(QFileInfo(dataPath).fileName());
    content.policy = data::parseBadCellPolicy(io::toString(io::member(dataObject, "bad_cell_policy")));

    std::vector<data::ColumnRole> &roles = content.roles;
    if (table) {
        roles = data::defaultRoles(*table);
        for (const auto &[name, value] : io::toObject(io::member(dataObject, "roles")).items()) {
            const auto column = table->columnIndex(name);
            if (!column)
                throw io::InputError(source, 0, 0,
                                     "the project names column " + io::quoteForMessage(name) + ", which " +
                                         coreText(dataPath) + " lacks");
            const std::string &roleName = io::toString(value);
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
    readComparison(project, source, content);

    // Projects written before runs were kept have none.
    if (const io::Json *runs = io::findMember(project, "runs")) {
        for (const auto &run : io::toArray(*runs)) {
            try {
                content.runs.push_back(run.get<runs::RunRecord>());
            } catch (const io::InputError &error) {
                throw io::InputError(source, 0, 0,
                                     "run " + std::to_string(content.runs.size() + 1) + ": " + error.message());
            } catch (const std::exception &error) {
                throw io::InputError(source, 0, 0,
                                     "run " + std::to_string(content.runs.size() + 1) + ": " + error.what());
            }
        }
    }
    // Model folders are kept relative to the project (older projects kept them absolute).
    const QDir projectFolder = QFileInfo(path).absoluteDir();
    for (auto &run : content.runs) {
        if (run.modelFolder.empty())
            continue;
        const QString folder = QDir::cleanPath(projectFolder.filePath(QString::fromStdString(run.modelFolder)));
        if (QFileInfo(QDir(folder).filePath(QStringLiteral("model.json"))).isFile()) {
            run.modelFolder = coreText(folder);
        } else {
            notes << QObject::tr("The model of %1 is not in %2 any more; its curves and metrics are kept.")
                         .arg(QString::fromStdString(run.name), folder);
            run.modelFolder.clear();
        }
    }
    return content;
}

QStringList applyProject(const ProjectContent &content, WorkbenchState &state)
{
    // Everything is read and checked: only now does the state change.
    state.setBadCellPolicy(content.policy);
    state.setTable(content.table, content.dataPath);
    if (content.table)
        state.setRoles(content.roles);
    state.setPresetName(content.preset);
    state.setHyperparameters(content.hyperparameters);
    WorkbenchState::SelectedData selected;
    if (content.comparison && content.table) {
        try {
            std::vector<std::string> warnings;
            selected = state.selectData(warnings);
        } catch (const std::exception &) {
            // Without a usable dataset the comparison still shows its metrics, only not per-row charts.
        }
    }
    report::ComparisonContext context = content.comparisonContext.value_or(report::ComparisonContext{});
    if (content.comparison && selected.dataset) {
        // The header is derived as the comparison derived it, from the same data; only
        // how the rows were split was kept (a project saved before that names seed 0).
        evaluation::ExperimentSettings settings;
        settings.testFraction = context.testFraction;
        settings.seed = context.seed;
        const workflows::ComparisonData data{coreText(QFileInfo(content.dataPath).fileName()), *content.table,
                                             selected.roles, selected.usableRows, *selected.dataset};
        context = workflows::comparisonContext(data, settings, context.groupBy, *content.comparison);
    }
    state.setComparison(content.comparison, selected.dataset, std::move(context));
    state.setRuns(content.runs);
    return content.notes;
}

} // namespace

ProjectContent readProjectContent(const QString &path, runtime::ProgressObserver *progress,
                                  const runtime::OperationControl *control)
{
    try {
        return readProject(path, progress, control);
    } catch (const io::InputError &error) {
        // A member missing or of the wrong type is reported without a file; name the project.
        if (!error.file().empty())
            throw;
        throw io::InputError(coreText(path), 0, 0, error.message());
    }
}

QStringList applyProjectContent(const ProjectContent &content, WorkbenchState &state)
{
    return applyProject(content, state);
}

QStringList readProjectFile(const QString &path, WorkbenchState &state)
{
    return applyProjectContent(readProjectContent(path), state);
}

} // namespace gpumem::ui
