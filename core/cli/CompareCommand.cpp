#include "cli/CompareCommand.h"

#include "cli/ComparisonReporter.h"
#include "cli/DataOptions.h"
#include "cli/ModelOptions.h"
#include "cli/TextTable.h"
#include "cli/TrainingReporter.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/NumberText.h"
#include "io/OutputPaths.h"
#include "io/OutputPlan.h"
#include "models/RegressorRegistry.h"
#include "report/ComparisonReport.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <unistd.h>

namespace gpumem::cli {

namespace {

// The paper's comparison plus the linear reference, where this build has them.
std::vector<std::string> defaultModels()
{
    std::vector<std::string> models;
    const std::vector<std::string> available = models::regressorNames();
    for (const char *name : {"bigru_transformer", "decision_tree", "random_forest", "adaboost", "xgboost", "ridge"})
        if (std::find(available.begin(), available.end(), name) != available.end())
            models.emplace_back(name);
    return models;
}

// One row per input row, in file order: the test fold that scored it, the actual
// value and every model's out-of-fold prediction (empty for rows no model scored).
std::string outOfFoldCsv(std::size_t tableRows, const std::vector<std::size_t> &usableRows,
                         const evaluation::ExperimentResult &result)
{
    std::vector<int> foldOfRow(usableRows.size(), 0);
    for (std::size_t fold = 0; fold < result.splits.size(); ++fold)
        for (Eigen::Index row : result.splits[fold].test)
            foldOfRow[static_cast<std::size_t>(row)] = static_cast<int>(fold) + 1;
    std::ostringstream csv;
    csv << "fold,actual";
    for (const auto &model : result.models)
        csv << ",prediction_" << model.name;
    csv << '\n';
    std::size_t next = 0;
    for (std::size_t row = 0; row < tableRows; ++row) {
        if (next < usableRows.size() && usableRows[next] == row) {
            const auto index = static_cast<Eigen::Index>(next);
            csv << (foldOfRow[next] > 0 ? std::to_string(foldOfRow[next]) : "train") << ','
                << io::csvNumber(result.actual[index]);
            for (const auto &model : result.models)
                csv << ',' << io::csvNumber(model.predictions[index]);
            ++next;
        } else {
            csv << std::string(1 + result.models.size(), ',');
        }
        csv << '\n';
    }
    return csv.str();
}

// Returns the format a report is written in: the extension's, or JSON for a
// device, pipe or descriptor named without one (e.g. --report /dev/stdout).
report::ReportFormat reportFormatFor(const std::string &path)
{
    try {
        return report::reportFormatForPath(path);
    } catch (const io::InputError &) {
        if (io::resolveFileDestination(path).method == io::FileDestination::Method::WriteThrough)
            return report::ReportFormat::Json;
        throw;
    }
}

void printTable(std::ostream &out, const evaluation::ExperimentResult &result)
{
    TextTable table({"model", "MSE", "RMSE", "MAE", "R²", "under", "train s", "p vs best"},
                    {TextTable::Alignment::Left, TextTable::Alignment::Right, TextTable::Alignment::Right,
                     TextTable::Alignment::Right, TextTable::Alignment::Right, TextTable::Alignment::Right,
                     TextTable::Alignment::Right, TextTable::Alignment::Right});
    for (const auto &model : result.models) {
        char cells[6][32];
        std::snprintf(cells[0], sizeof cells[0], "%.4g", model.mean.mse);
        std::snprintf(cells[1], sizeof cells[1], "%.4g", model.mean.rmse);
        std::snprintf(cells[2], sizeof cells[2], "%.4g", model.mean.mae);
        std::snprintf(cells[3], sizeof cells[3], "%.5f", model.mean.r2);
        std::snprintf(cells[4], sizeof cells[4], "%.1f%%", 100.0 * model.mean.underRate);
        std::snprintf(cells[5], sizeof cells[5], "%.2f", model.trainSeconds);
        std::string significance = model.name == result.best ? "best" : "";
        if (const auto *test = report::reportedTest(result, model.name)) {
            char p[32];
            std::snprintf(p, sizeof p, "%.4f%s", test->pValue, test->pValue < 0.05 ? " *" : "");
            significance = p;
        }
        table.addRow({model.name, cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], significance});
    }
    table.print(out);
}

} // namespace

int runCompare(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    std::string modelList;
    for (const auto &name : models::regressorNames())
        modelList += (modelList.empty() ? "" : ",") + name;
    ArgumentParser parser(
        "gpumem compare DATA.csv --target COLUMN [--models A,B,…] [--folds K | --test-fraction F] [options]",
        "Fits several models on identical seeded splits of the same data and compares MSE, RMSE, MAE, R²,\n"
        "the under-prediction (out-of-memory) rate and more, with paired significance tests against the best.");
    parser.positional("DATA.csv", "the measurements, one job per row, with a header row");
    addDataOptions(parser);
    parser
        .option("models", "A,B,…", "the models to compare (default: the paper's five plus ridge); known: " + modelList)
        .option("folds", "K", "K-fold cross-validation (default 5)")
        .option("test-fraction", "F", "one seeded hold-out of this share of rows instead of folds");
    addModelOptions(parser);
    addComputeOptions(parser);
    parser.option("jobs", "N", "fit up to N (model, fold) pairs at the same time (default 1); results do not change")
        .option("report", "FILE",
                "write a report: .json, .md, .csv or .html by extension, JSON to a device such as "
                "/dev/stdout (repeatable)")
        .option("predictions", "FILE.csv", "write every row's fold, actual value and each model's prediction")
        .flag("json", "print the JSON report on stdout instead of the table");

    const ParsedArguments parsed = parser.parse(arguments);
    if (parsed.helpRequested()) {
        out << parser.helpText()
            << "\nHyperparameters: --preset, --config and plain --set NAME=VALUE apply to bigru_transformer;\n"
               "--set MODEL.NAME=VALUE sets another model's (e.g. --set random_forest.n_estimators=300).\n"
               "See 'gpumem describe-model --model NAME' for every model's hyperparameters.\n";
        return 0;
    }
    if (!parsed.has("target"))
        throw io::InputError("missing --target COLUMN (see 'gpumem inspect' for candidates)");
    if (parsed.has("folds") && parsed.has("test-fraction"))
        throw io::InputError("give --folds or --test-fraction, not both");

    evaluation::ExperimentSettings settings;
    const std::vector<std::string> names = parsed.has("models") ? parsed.list("models") : defaultModels();
    for (const auto &name : names) {
        for (const auto &spec : settings.models)
            if (spec.name == name)
                throw io::InputError("--models names " + io::quoteForMessage(name) + " twice");
        settings.models.push_back({name, hyperparametersFor(name, parsed)});
    }
    for (const auto &assignment : parsed.list("set")) {
        const std::string model = modelOfAssignment(assignment);
        if (!model.empty() && std::find(names.begin(), names.end(), model) == names.end())
            throw io::InputError("--set " + io::quoteForMessage(assignment) + " names a model that is not compared");
    }
    settings.folds =
        static_cast<int>(std::min<std::uint64_t>(parseWholeNumber(parsed.value("folds", "5"), "--folds"), 1u << 20));
    if (parsed.has("test-fraction")) {
        settings.testFraction = parseFraction(parsed.value("test-fraction"), "--test-fraction");
        if (settings.testFraction == 0.0)
            throw io::InputError("--test-fraction must be above 0 for a comparison");
    }
    settings.compute = computeSettingsFrom(parsed);
    settings.seed = settings.compute.seed;
    settings.parallelFits =
        static_cast<int>(std::min<std::uint64_t>(parseWholeNumber(parsed.value("jobs", "1"), "--jobs", true), 64));
    std::vector<std::string> reportPaths = parsed.list("report");
    for (const auto &reportPath : reportPaths)
        reportFormatFor(reportPath); // refuse an unknown extension before the long run
    const std::string path = parsed.positionals().front();
    io::OutputPlan outputs;
    outputs.addInput(path, "DATA.csv");
    if (parsed.has("config"))
        outputs.addInput(parsed.value("config"), "--config");
    for (const auto &reportPath : reportPaths)
        outputs.addOutputFile(reportPath, "--report");
    if (parsed.has("predictions"))
        outputs.addOutputFile(parsed.value("predictions"), "--predictions");
    outputs.check();

    const LoadedData loaded = loadData(path, parsed);
    const data::Dataset dataset = data::Dataset::fromTable(*loaded.table, loaded.roles, loaded.usableRows);
    for (const auto &warning : loaded.warnings)
        err << "warning: " << warning << '\n';

    ComparisonReporter reporter(err, ::isatty(2) != 0);
    const evaluation::ExperimentResult result = evaluation::runExperiment(dataset, settings, &reporter);
    reporter.finish();
    for (const auto &model : result.models)
        for (const auto &warning : model.warnings)
            err << "warning: " << model.name << ": " << warning << '\n';
    for (const auto &warning : result.warnings)
        err << "warning: " << warning << '\n';

    report::ComparisonContext context;
    context.dataset = path;
    context.target = dataset.targetName();
    context.rows = dataset.rowCount();
    for (std::size_t column = 0; column < loaded.table->columnCount(); ++column)
        if (loaded.roles[column] == data::ColumnRole::Feature || loaded.roles[column] == data::ColumnRole::Sequence)
            context.features.push_back(loaded.table->column(column).name);
    context.folds = static_cast<int>(result.splits.size());
    context.testFraction = settings.testFraction;
    context.seed = settings.seed;

    out.flush(); // a report sent to /dev/stdout follows what was printed so far
    for (const auto &reportPath : reportPaths) {
        std::ostringstream text;
        report::writeReport(text, reportFormatFor(reportPath), context, result);
        io::writeFileAtomically(reportPath, text.str());
    }
    if (parsed.has("predictions"))
        io::writeFileAtomically(parsed.value("predictions"),
                                outOfFoldCsv(loaded.table->rowCount(), loaded.usableRows, result));
    if (parsed.has("json")) {
        report::writeJsonReport(out, context, result);
    } else {
        out << report::describeSplitting(context) << " of " << context.rows << " rows, "
            << formatDuration(result.seconds) << '\n';
        printTable(out, result);
        if (const auto *test = result.significance.empty() ? nullptr : &result.significance.front())
            out << "p: two-sided " << (result.splits.size() < 6 ? "paired t-test" : "Wilcoxon signed-rank test")
                << " of the " << test->metric << " against " << result.best << "; * p < 0.05\n";
        for (const auto &reportPath : reportPaths)
            out << "wrote " << reportPath << '\n';
    }
    return 0;
}

} // namespace gpumem::cli
