// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/CompareCommand.h"

#include "calibration/Calibration.h"
#include "calibration/Coverage.h"
#include "cli/CalibrationOptions.h"
#include "cli/CommandParser.h"
#include "cli/ComparisonReporter.h"
#include "cli/DataOptions.h"
#include "cli/ModelOptions.h"
#include "cli/TextTable.h"
#include "cli/TrainingReporter.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/OutputPaths.h"
#include "io/OutputPlan.h"
#include "models/RegressorRegistry.h"
#include "report/ComparisonReport.h"
#include "report/OutOfFoldCsv.h"
#include "report/ReportText.h"
#include "report/SignificanceLegend.h"
#include "workflows/CompareWorkflow.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace gpumem::cli {

namespace {

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
    std::vector<const evaluation::MetricDescription *> metrics;
    for (const auto &metric : evaluation::metricDescriptions())
        metrics.push_back(&metric);
    std::vector<std::string> numbers;
    for (const auto *metric : metrics)
        numbers.push_back(metric->shortTitle);
    const bool bounded = result.calibration.has_value();
    if (bounded)
        numbers.insert(numbers.end(), {"bound under", "bound over MiB", "+10% over MiB"});
    numbers.insert(numbers.end(), {"train s", "p vs best"});
    std::vector<TextTable::Column> columns{"model"};
    for (auto &title : numbers)
        columns.push_back(TextTable::numeric(std::move(title)));
    TextTable table(std::move(columns));
    for (const auto &model : result.models) {
        std::vector<std::string> cells{model.name};
        for (const auto *metric : metrics)
            cells.push_back(evaluation::formatMetric(*metric, model.mean.*metric->member));
        if (bounded) {
            const evaluation::ModelBound *bound = model.bound ? &*model.bound : nullptr;
            cells.push_back(bound ? fmt::format("{:.1f}%", 100.0 * bound->bound.underPredictionRate) : "");
            cells.push_back(bound ? fmt::format("{:.2f}", bound->bound.meanOverAllocation) : "");
            cells.push_back(bound ? fmt::format("{:.2f}", bound->tenPercent.meanOverAllocation) : "");
        }
        cells.push_back(fmt::format("{:.2f}", model.trainSeconds));
        cells.push_back(report::significanceText(result, model.name));
        table.addRow(cells);
    }
    table.print(out);
}

// The options of `gpumem compare` as the command line gives them.
struct CompareOptions
{
    std::string path;
    DataOptions data;
    std::vector<std::string> modelNames;
    std::optional<std::uint64_t> folds;
    std::optional<std::uint64_t> repeats;
    std::optional<std::string> groupBy;
    std::optional<double> testFraction;
    ModelOptions model;
    ComputeOptions compute;
    std::vector<std::string> reportPaths;
    std::optional<std::string> predictionsPath;
    CalibrationOptions calibration;
    bool json = false;
    bool explain = false;
};

void addCompareOptions(CLI::App &app, CompareOptions &options)
{
    std::string modelList;
    for (const auto &name : models::regressorNames())
        modelList += (modelList.empty() ? "" : ",") + name;
    app.add_option("DATA.csv", options.path, "the measurements, one job per row, with a header row")->required();
    addDataOptions(app, options.data);
    addListOption(app, "--models", options.modelNames, "A,B,…",
                  "the models to compare (default: the paper's five plus ridge); known: " + modelList);
    app.add_option("--folds", options.folds, "K-fold cross-validation (default 5)")
        ->type_name("K")
        ->transform(wholeNumber());
    app.add_option("--repeats", options.repeats,
                   "repeat the K folds R times, each time with new folds and a new training seed; reports the "
                   "mean ± sd over all fits and the spread over repetitions (default 1)")
        ->type_name("R")
        ->transform(wholeNumber(1, 100));
    app.add_option("--group-by", options.groupBy,
                   "grouped folds: every value of COLUMN lands in exactly one test fold, so each model is "
                   "scored on groups it never saw (e.g. --group-by model)")
        ->type_name("COLUMN");
    addTestFractionOption(app, options.testFraction, "one seeded hold-out of this share of rows instead of folds");
    addModelOptions(app, options.model);
    addComputeOptions(app, options.compute);
    app.add_option("--jobs", options.compute.jobs,
                   "fit up to N (model, fold) pairs at the same time (default 1); results do not change")
        ->type_name("N")
        ->transform(wholeNumber(1));
    addListOption(app, "--report", options.reportPaths, "FILE",
                  "write a report: .json, .md, .csv, .html or .pdf by extension, JSON to a device such as "
                  "/dev/stdout (repeatable)");
    addPredictionsOption(app, options.predictionsPath,
                         "write every row's fold, actual value and each model's prediction (and upper bound)");
    addCalibrationOptions(app, options.calibration, CalibrationScope::EachFold);
    app.add_flag("--json", options.json, "print the JSON report on stdout instead of the table");
    app.add_flag("--explain", options.explain,
                 "also measure each model's permutation importance and partial dependence on every fold "
                 "(the JSON report's \"explanation\")");
}

// The experiment the options ask for. The preset and --config are read once: they
// are the network's, and every other model starts from its own defaults.
evaluation::ExperimentSettings experimentFrom(const CompareOptions &options)
{
    if (options.folds && options.testFraction)
        throw io::InputError("give --folds or --test-fraction, not both");
    if (options.testFraction && (options.repeats || options.groupBy))
        throw io::InputError("--repeats and --group-by need cross-validation, not --test-fraction");
    evaluation::ExperimentSettings settings;
    const std::vector<std::string> names =
        options.modelNames.empty() ? models::defaultComparisonModels() : nonEmptyItems(options.modelNames);
    settings.models = workflows::comparedModels(names, hyperparametersFrom(options.model));
    for (auto &spec : settings.models)
        applyQualifiedAssignments(spec.name, options.model, spec.hyperparameters);
    for (const auto &assignment : nonEmptyItems(options.model.assignments)) {
        const std::string model = modelOfAssignment(assignment);
        if (!model.empty() && std::find(names.begin(), names.end(), model) == names.end())
            throw io::InputError("--set " + io::quoteForMessage(assignment) + " names a model that is not compared");
    }
    settings.folds = static_cast<int>(std::min<std::uint64_t>(options.folds.value_or(5), 1u << 20));
    settings.repeats = static_cast<int>(options.repeats.value_or(1));
    if (options.testFraction) {
        settings.testFraction = *options.testFraction;
        if (settings.testFraction == 0.0)
            throw io::InputError("--test-fraction must be above 0 for a comparison");
    }
    settings.compute = computeSettingsFrom(options.compute);
    settings.seed = settings.compute.seed;
    settings.calibration = calibrationSettingsFrom(options.calibration, settings.seed);
    settings.parallelFits = static_cast<int>(std::min<std::uint64_t>(options.compute.jobs.value_or(1), 64));
    return settings;
}

// Refuses an unknown report extension, and an output that would replace an input,
// before the long run.
void checkOutputs(const CompareOptions &options)
{
    for (const auto &reportPath : options.reportPaths)
        reportFormatFor(reportPath);
    io::OutputPlan outputs;
    outputs.addInput(options.path, "DATA.csv");
    if (options.model.config)
        outputs.addInput(*options.model.config, "--config");
    for (const auto &reportPath : options.reportPaths)
        outputs.addOutputFile(reportPath, "--report");
    if (options.predictionsPath)
        outputs.addOutputFile(*options.predictionsPath, "--predictions");
    outputs.check();
}

// The table of models and the lines that explain its columns.
void printSummary(std::ostream &out, const workflows::CompareResult &compared,
                  const std::vector<std::string> &reportPaths)
{
    const evaluation::ExperimentResult &result = compared.experiment;
    const report::ComparisonContext &context = compared.context;
    out << report::describeSplitting(context) << " of " << context.rows << " rows, " << formatDuration(result.seconds)
        << '\n';
    printTable(out, result);
    if (result.calibration)
        out << fmt::format("bound: upper bound for coverage {:g} ({} score), calibrated on {:g} of each fold's "
                           "training rows; under: its under-prediction rate, over: its mean over-allocation; "
                           "+10%: the prediction plus 10%\n",
                           result.calibration->coverage, calibration::scoreName(result.calibration->score),
                           result.calibration->fraction);
    if (const std::string legend = report::significanceLegend(result); !legend.empty())
        out << legend << '\n';
    if (result.repeats > 1)
        out << "means over " << result.splits.size() << " fits (" << result.repeats << " repetitions of "
            << context.folds << " folds); --report x.md or .json for the spread over repetitions\n";
    for (const auto &reportPath : reportPaths)
        out << "wrote " << reportPath << '\n';
}

} // namespace

int runCompare(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    CommandParser parser(
        "gpumem compare",
        "gpumem compare DATA.csv --target COLUMN [--models A,B,…] [--folds K | --test-fraction F] [options]",
        "Fits several models on identical seeded splits of the same data and compares MSE, RMSE, MAE, R²,\n"
        "the under-prediction (out-of-memory) rate and more, with paired significance tests against the best.");
    parser.addHelpFooter(
        "\nHyperparameters: --preset, --config and plain --set NAME=VALUE apply to bigru_transformer;\n"
        "--set MODEL.NAME=VALUE sets another model's (e.g. --set random_forest.n_estimators=300).\n"
        "See 'gpumem describe-model --model NAME' for every model's hyperparameters.\n");
    CompareOptions options;
    addCompareOptions(parser.app(), options);
    if (!parser.parse(arguments, out))
        return 0;

    requireTarget(options.data);
    workflows::CompareConfiguration configuration;
    configuration.experiment = experimentFrom(options);
    configuration.groupBy = options.groupBy.value_or("");
    if (options.explain)
        configuration.experiment.explanation.emplace();
    options.reportPaths = nonEmptyItems(options.reportPaths);
    checkOutputs(options);

    const workflows::DataSelection loaded = workflows::selectData(dataRequest(options.path, options.data));
    for (const auto &warning : loaded.warnings)
        err << "warning: " << warning << '\n';

    ComparisonReporter reporter(err, ::isatty(2) != 0);
    const workflows::CompareResult compared = workflows::compare(loaded, options.path, configuration, &reporter);
    reporter.finish();
    for (const auto &warning : compared.warnings)
        err << "warning: " << warning << '\n';

    out.flush(); // a report sent to /dev/stdout follows what was printed so far
    for (const auto &reportPath : options.reportPaths) {
        std::ostringstream text;
        report::writeReport(text, reportFormatFor(reportPath), compared.context, compared.experiment);
        io::writeFileAtomically(reportPath, text.str());
    }
    if (options.predictionsPath)
        io::writeFileAtomically(*options.predictionsPath,
                                report::outOfFoldCsv(loaded.table->rowCount(), loaded.usableRows, compared.experiment));
    if (options.json)
        report::writeJsonReport(out, compared.context, compared.experiment);
    else
        printSummary(out, compared, options.reportPaths);
    return 0;
}

} // namespace gpumem::cli
