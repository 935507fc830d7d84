// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/TrainCommand.h"

#include "calibration/BoundReport.h"
#include "calibration/CalibrationJson.h"
#include "cli/CalibrationOptions.h"
#include "cli/CommandParser.h"
#include "cli/DataOptions.h"
#include "cli/MetricsFormat.h"
#include "cli/ModelOptions.h"
#include "cli/TrainingReporter.h"
#include "data/ColumnRoles.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/JsonDocument.h"
#include "io/OutputPlan.h"
#include "models/NetworkModelName.h"
#include "report/MetricsJson.h"
#include "workflows/TrainWorkflow.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <unistd.h>

namespace gpumem::cli {

namespace {

// Returns e.g. "0.004 s", "0.02 s", "12.3 s" or "3m05s": a fit of a tree takes milliseconds.
std::string formatSeconds(double seconds)
{
    if (seconds >= 60.0)
        return formatDuration(seconds);
    if (seconds < 0.001)
        return "under 0.001 s";
    char text[32];
    std::snprintf(text, sizeof text, seconds < 0.01 ? "%.3f s" : seconds < 10.0 ? "%.2f s" : "%.1f s", seconds);
    return text;
}

// Returns count with thousands separated by commas, e.g. "1,234".
std::string groupedCount(std::size_t count)
{
    std::string digits = std::to_string(count);
    for (auto position = static_cast<std::ptrdiff_t>(digits.size()) - 3; position > 0; position -= 3)
        digits.insert(static_cast<std::size_t>(position), 1, ',');
    return digits;
}

// Networks train in epochs and keep the best one; trees and analytic models fit in one go.
bool trainsInEpochs(const models::Regressor &model)
{
    const auto &specs = model.hyperparameters().specs();
    return std::any_of(specs.begin(), specs.end(), [](const auto &spec) { return spec.name == "epochs"; });
}

// Refuses what --resume-from cannot honour, before anything is read: the
// continued run keeps the stopped one's model, hyperparameters and data.
void checkResumable(const CLI::App &app, const std::string &modelName, const ModelOptions &modelOptions,
                    const CalibrationOptions &calibrationOptions)
{
    if (app.get_option("--model")->count() > 0 && modelName != models::kNetworkModelName)
        throw io::InputError("--resume-from continues a " + std::string(models::kNetworkModelName) + " training; " +
                             modelName + " fits in one go");
    if (modelOptions.preset || modelOptions.config || !modelOptions.assignments.empty())
        throw io::InputError("--resume-from keeps the model's own hyperparameters; leave out --preset, --config and "
                             "--set (only --epochs may change)");
    if (calibrationOptions.coverage)
        throw io::InputError("--coverage cannot be combined with --resume-from; calibrate with 'gpumem train "
                             "--coverage' from scratch");
}

// The options of `gpumem train` as the command line gives them.
struct TrainOptions
{
    TrainingInputs inputs;
    double testFraction = 0.0;
    // A separate seed for the hold-out keeps the test rows fixed while --seed varies the
    // training, so the spread over training seeds can be measured on one split.
    std::optional<std::uint64_t> splitSeed;
    std::optional<std::string> out;
    std::optional<std::string> predictionsPath;
    CalibrationOptions calibration;
    std::optional<std::uint64_t> epochs;
    std::optional<std::string> resumeFrom;
    bool json = false;
};

void addTrainOptions(CLI::App &app, TrainOptions &options)
{
    addTrainingInputs(app, options.inputs);
    addTestFractionOption(app, options.testFraction,
                          "hold out this share of rows (seeded) and report metrics on it (default 0)");
    app.add_option("--split-seed", options.splitSeed, "seed of the --test-fraction hold-out (default: --seed)")
        ->type_name("N")
        ->needs("--test-fraction");
    app.add_option("--out", options.out, "the model folder to write (replaced atomically)")->type_name("MODEL_DIR");
    addPredictionsOption(app, options.predictionsPath,
                         "also write every row's prediction, actual value and split (train/calibration/test)");
    addCalibrationOptions(app, options.calibration, CalibrationScope::Model);
    app.add_option("--epochs", options.epochs,
                   "train the network this many epochs in all (as --set epochs=N; with --resume-from: more than the "
                   "model has trained)")
        ->type_name("N")
        ->transform(wholeNumber(1, 100000));
    app.add_option("--resume-from", options.resumeFrom,
                   "continue the training saved in this bigru_transformer folder: same data, hyperparameters, "
                   "seed, --test-fraction and --split-seed")
        ->type_name("MODEL_DIR");
    app.add_flag("--json", options.json, "print JSON Lines (progress events, then a summary) on stdout");
}

// Refuses an input or output that would replace another, before the training, which can
// take minutes; the model's save checks again.
void checkOutputs(const TrainOptions &options)
{
    io::OutputPlan outputs;
    outputs.addInput(options.inputs.path, "DATA.csv");
    if (options.resumeFrom)
        outputs.addInput(*options.resumeFrom, "--resume-from");
    if (options.inputs.model.config)
        outputs.addInput(*options.inputs.model.config, "--config");
    outputs.addOutputFolder(*options.out, "--out");
    if (options.predictionsPath)
        outputs.addOutputFile(*options.predictionsPath, "--predictions");
    outputs.check();
}

// The training the options ask for (without --resume-from's network; see workflows::resumeTraining).
workflows::TrainConfiguration configurationFrom(const TrainOptions &options)
{
    const TrainingInputs &inputs = options.inputs;
    workflows::TrainConfiguration configuration;
    configuration.model = inputs.modelName;
    configuration.hyperparameters = hyperparametersFor(inputs.modelName, inputs.model);
    if (options.epochs) {
        if (inputs.modelName != models::kNetworkModelName)
            throw io::InputError("--epochs is for " + std::string(models::kNetworkModelName) + "; " + inputs.modelName +
                                 " fits in one go");
        configuration.hyperparameters.setAssignment("epochs=" + std::to_string(*options.epochs));
    }
    configuration.compute = computeSettingsFrom(inputs.compute);
    // The saved model trains on every training row; the calibration rows only measure
    // the margins first (CalibrationSettings::refit).
    configuration.calibration = calibrationSettingsFrom(options.calibration, configuration.compute.seed);
    configuration.holdOutFraction = options.testFraction;
    configuration.holdOutSeed = options.splitSeed;
    return configuration;
}

// What train prints when it has saved the model: a JSON summary or lines for people.
struct TrainSummary
{
    const TrainOptions &options;
    const workflows::TrainResult &trained;
    int epochsBefore = 0;
};

void printJsonSummary(std::ostream &out, const TrainSummary &summary)
{
    const workflows::TrainResult &trained = summary.trained;
    const training::TrainingResult &result = trained.fit.training;
    const double samplesPerSecond = result.epochs.empty() ? 0.0 : result.epochs.back().samplesPerSecond;
    io::Json json{{"event", "finished"},
                  {"stop_reason", training::stopReasonName(result.stopReason)},
                  {"message", result.message},
                  {"epochs_run", result.epochs.size()},
                  {"best_epoch", result.bestEpoch},
                  {"seconds", result.seconds},
                  {"samples_per_second", samplesPerSecond},
                  {"device", trained.model->deviceName()},
                  {"train_rows", trained.fitRows.size()},
                  {"test_rows", trained.split.test.size()},
                  {"train_metrics", *trained.record.trainMetrics}};
    if (!trained.split.test.empty())
        json["test_metrics"] = *trained.record.validationMetrics;
    if (trained.fit.calibration)
        json["calibration"] =
            calibration::calibrationSummaryJson(*trained.fit.calibration, trained.fit.rows, trained.boundReport);
    if (summary.options.resumeFrom) {
        json["resumed_from"] = *summary.options.resumeFrom;
        json["epochs_before"] = summary.epochsBefore;
    }
    json["model_dir"] = *summary.options.out;
    io::writeJsonDocument(out, json, {/*indent=*/0});
    out << '\n';
}

void printTextSummary(std::ostream &out, const TrainSummary &summary)
{
    const workflows::TrainResult &trained = summary.trained;
    const training::TrainingResult &result = trained.fit.training;
    const models::Regressor &model = *trained.model;
    if (summary.options.resumeFrom)
        out << "continued " << *summary.options.resumeFrom << " after epoch " << summary.epochsBefore << '\n';
    if (trainsInEpochs(model))
        out << result.message << " in " << formatSeconds(result.seconds) << " on " << model.deviceName()
            << " (best epoch " << result.bestEpoch << ")\n";
    else
        out << "fitted " << summary.options.inputs.modelName << " on " << groupedCount(trained.fitRows.size())
            << " rows in " << formatSeconds(result.seconds)
            << (result.message.empty() ? "" : " (" + result.message + ")") << '\n';
    out << "train (" << trained.fitRows.size() << " rows): " << describeMetrics(*trained.record.trainMetrics) << '\n';
    if (!trained.split.test.empty())
        out << "test  (" << trained.split.test.size()
            << " rows): " << describeMetrics(*trained.record.validationMetrics) << '\n';
    if (const auto &stored = trained.fit.calibration) {
        char line[200];
        std::snprintf(line, sizeof line, "upper bound: %s score, coverage %g, margin %.6g (%zu calibration rows)\n",
                      std::string(calibration::scoreName(stored->score())).c_str(), stored->coverage(),
                      stored->margin(stored->coverage()), trained.fit.rows.calibration.size());
        out << line;
        if (const auto &bound = trained.boundReport) {
            std::snprintf(line, sizeof line,
                          "test %+.2f%% headroom (the smallest reaching %g on the calibration rows): ",
                          bound->bestHeadroomPercent, stored->coverage());
            out << "test bound:         " << calibration::describeBoundMetrics(bound->bound) << '\n'
                << "test +10% headroom: " << calibration::describeBoundMetrics(bound->tenPercent) << '\n'
                << line << calibration::describeBoundMetrics(bound->bestHeadroom) << '\n';
        }
    }
    out << "saved " << *summary.options.out << '\n';
}

} // namespace

int runTrain(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    CommandParser parser("gpumem train", "gpumem train DATA.csv --target COLUMN --out MODEL_DIR [options]",
                         "Trains the BiGRU-optimised Transformer (or another model with --model) to predict a job's\n"
                         "peak GPU memory and saves it as a model folder that `gpumem predict` reads.");
    CLI::App &app = parser.app();
    TrainOptions options;
    addTrainOptions(app, options);
    if (!parser.parse(arguments, out))
        return 0;

    if (!options.out)
        throw io::InputError("missing --out MODEL_DIR (see 'gpumem train --help')");
    requireTarget(options.inputs.data);
    if (options.resumeFrom)
        checkResumable(app, options.inputs.modelName, options.inputs.model, options.calibration);
    workflows::TrainConfiguration configuration = configurationFrom(options);
    checkOutputs(options);

    const workflows::DataSelection loaded =
        workflows::selectData(dataRequest(options.inputs.path, options.inputs.data));
    const data::Dataset &dataset = *loaded.dataset;
    for (const auto &warning : loaded.warnings)
        err << "warning: " << warning << '\n';
    // A --seed given must be the one the stopped run was trained with.
    const int epochsBefore =
        options.resumeFrom ? workflows::resumeTraining(configuration, *options.resumeFrom, options.epochs,
                                                       app.get_option("--seed")->count() > 0
                                                           ? std::optional<std::uint64_t>(configuration.compute.seed)
                                                           : std::nullopt)
                           : 0;

    const auto style = options.json       ? TrainingReporter::Style::JsonLines
                       : ::isatty(2) != 0 ? TrainingReporter::Style::ProgressBar
                                          : TrainingReporter::Style::EpochLines;
    TrainingReporter reporter(style, out, err);
    const workflows::TrainResult trained = workflows::train(dataset, configuration, &reporter);
    reporter.finish();
    if (!trained.succeeded())
        throw io::InputError(trained.fit.training.message + "; no model was saved");

    workflows::saveTrainedModel(trained, *options.out);
    if (options.predictionsPath) {
        out.flush(); // predictions sent to /dev/stdout follow the progress printed so far
        io::writeFileAtomically(*options.predictionsPath, workflows::predictionsCsv(loaded, trained));
    }
    const TrainSummary summary{options, trained, epochsBefore};
    if (options.json)
        printJsonSummary(out, summary);
    else
        printTextSummary(out, summary);
    return 0;
}

} // namespace gpumem::cli
