// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/TrainCommand.h"

#include "calibration/BoundMetrics.h"
#include "calibration/CalibratedFit.h"
#include "calibration/CalibrationJson.h"
#include "calibration/Coverage.h"
#include "cli/DataOptions.h"
#include "cli/MetricsFormat.h"
#include "cli/ModelOptions.h"
#include "cli/TrainingReporter.h"
#include "data/ColumnRoles.h"
#include "evaluation/Splits.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/OutputPlan.h"
#include "models/ModelFolder.h"
#include "models/RegressorRegistry.h"
#include "prediction/PredictionFile.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <unistd.h>

namespace gpumem::cli {

namespace {

evaluation::RegressionMetrics metricsOn(const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted,
                                        const std::vector<Eigen::Index> &rows)
{
    Eigen::VectorXd actualRows(static_cast<Eigen::Index>(rows.size()));
    Eigen::VectorXd predictedRows(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        actualRows[static_cast<Eigen::Index>(i)] = actual[rows[i]];
        predictedRows[static_cast<Eigen::Index>(i)] = predicted[rows[i]];
    }
    return evaluation::computeMetrics(actualRows, predictedRows);
}

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

// What train reports of a calibrated bound on the --test-fraction rows, beside the
// rules users know: "+10%" headroom, and the smallest fixed headroom that reaches
// the coverage on the calibration rows.
struct BoundReport
{
    double margin = 0.0;
    calibration::BoundMetrics bound;
    calibration::BoundMetrics tenPercent;
    double bestHeadroomPercent = 0.0;
    calibration::BoundMetrics bestHeadroom;
    std::vector<calibration::TradeOffPoint> tradeOff;
    std::vector<std::pair<double, double>> shareWithinCapacity; // (capacity MiB, share of test jobs)
};

// The memory of common GPUs, GiB: which of them a job's bound fits.
constexpr double commonCapacitiesGiB[] = {8, 12, 16, 24, 40, 48, 80, 141};

BoundReport reportBound(const calibration::Calibration &calibrated, const data::Dataset &dataset,
                        const Eigen::VectorXd &predicted, const Eigen::VectorXd &bounds,
                        const calibration::CalibrationRows &rows, const std::vector<Eigen::Index> &testRows)
{
    const Eigen::VectorXd &actual = dataset.target();
    BoundReport report;
    report.margin = calibrated.margin(calibrated.coverage());
    report.bound = calibration::boundMetrics(actual, bounds, testRows);
    report.tenPercent = calibration::boundMetrics(actual, calibration::headroomBounds(predicted, 10.0), testRows);
    report.bestHeadroomPercent =
        calibration::smallestHeadroomPercent(actual, predicted, rows.calibration, calibrated.coverage());
    report.bestHeadroom =
        calibration::boundMetrics(actual, calibration::headroomBounds(predicted, report.bestHeadroomPercent), testRows);
    const Eigen::VectorXd scales =
        calibrated.scales(dataset.numericFeatures(), dataset.numericFeatureNames(), predicted);
    report.tradeOff = calibration::tradeOffCurve(calibrated, scales, predicted, actual, testRows);
    for (double capacity : commonCapacitiesGiB)
        report.shareWithinCapacity.emplace_back(capacity * 1024.0,
                                                calibration::shareWithinCapacity(bounds, testRows, capacity * 1024.0));
    return report;
}

void writeCalibrationSummary(io::JsonWriter &json, const calibration::Calibration &calibrated,
                             const calibration::CalibrationRows &rows, const std::optional<BoundReport> &report)
{
    json.beginObject();
    json.key("score").value(calibration::scoreName(calibrated.score()));
    json.key("coverage").value(calibrated.coverage());
    json.key("margin").value(calibrated.margin(calibrated.coverage()));
    json.key("fit_rows").value(rows.fit.size());
    json.key("calibration_rows").value(rows.calibration.size());
    if (report) {
        json.key("test_bound");
        calibration::writeBoundMetrics(json, report->bound);
        json.key("test_headroom_10_percent");
        calibration::writeBoundMetrics(json, report->tenPercent);
        json.key("best_headroom_percent").value(report->bestHeadroomPercent);
        json.key("test_best_headroom");
        calibration::writeBoundMetrics(json, report->bestHeadroom);
        json.key("test_trade_off").beginArray();
        for (const auto &point : report->tradeOff) {
            json.beginObject();
            json.key("margin").value(point.margin);
            json.key("under_prediction_rate").value(point.underPredictionRate);
            json.key("mean_over_allocation_mib").value(point.meanOverAllocation);
            json.endObject();
        }
        json.endArray();
        json.key("test_share_within_capacity").beginArray();
        for (const auto &[capacity, share] : report->shareWithinCapacity) {
            json.beginObject();
            json.key("capacity_mib").value(capacity);
            json.key("share").value(share);
            json.endObject();
        }
        json.endArray();
    }
    json.endObject();
}

} // namespace

int runTrain(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    ArgumentParser parser("gpumem train DATA.csv --target COLUMN --out MODEL_DIR [options]",
                          "Trains the BiGRU-optimised Transformer (or another model with --model) to predict a job's\n"
                          "peak GPU memory and saves it as a model folder that `gpumem predict` reads.");
    parser.positional("DATA.csv", "the measurements, one job per row, with a header row");
    addDataOptions(parser);
    addModelOptions(parser);
    addComputeOptions(parser);
    parser.option("model", "NAME", "the model to train (default bigru_transformer; see gpumem compare --help)");
    parser.option("test-fraction", "F", "hold out this share of rows (seeded) and report metrics on it (default 0)")
        .option("out", "MODEL_DIR", "the model folder to write (replaced atomically)")
        .option("predictions", "FILE.csv",
                "also write every row's prediction, actual value and split (train/calibration/test)")
        .option("coverage", "C",
                "calibrate an upper bound that holds a share C of new jobs, e.g. 0.95, and store it with the model")
        .option("calibration-fraction", "F",
                "with --coverage: the share of the training rows set aside to calibrate (default 0.2)")
        .option("calibration-score", "absolute|relative|difficulty",
                "with --coverage: how residuals are normalised (default difficulty; see docs/calibration.md)")
        .flag("json", "print JSON Lines (progress events, then a summary) on stdout");

    const ParsedArguments parsed = parser.parse(arguments);
    if (parsed.helpRequested()) {
        out << parser.helpText();
        return 0;
    }
    if (!parsed.has("out"))
        throw io::InputError("missing --out MODEL_DIR (see 'gpumem train --help')");
    if (!parsed.has("target"))
        throw io::InputError("missing --target COLUMN (see 'gpumem inspect' for candidates)");
    const std::string path = parsed.positionals().front();
    const std::string modelName = parsed.value("model", "bigru_transformer");
    const models::Hyperparameters hyperparameters = hyperparametersFor(modelName, parsed);
    const models::ComputeSettings compute = computeSettingsFrom(parsed);
    const double testFraction = parseFraction(parsed.value("test-fraction", "0"), "--test-fraction");
    const bool calibrating = parsed.has("coverage");
    calibration::CalibrationSettings calibrationSettings;
    calibrationSettings.seed = compute.seed;
    if (calibrating) {
        calibrationSettings.coverage = calibration::parseCoverage(parsed.value("coverage"), "--coverage");
        if (parsed.has("calibration-fraction")) {
            calibrationSettings.fraction =
                parseFraction(parsed.value("calibration-fraction"), "--calibration-fraction");
            if (calibrationSettings.fraction == 0.0)
                throw io::InputError("--calibration-fraction must be above 0");
        }
        if (parsed.has("calibration-score"))
            calibrationSettings.score = calibration::parseScore(parsed.value("calibration-score"));
    } else {
        for (const char *option : {"calibration-fraction", "calibration-score"})
            if (parsed.has(option))
                throw io::InputError(std::string("--") + option + " takes effect only with --coverage");
    }

    const std::string outDirectory = parsed.value("out");
    // Checked before the training, which can take minutes, and again when the model is saved.
    io::OutputPlan outputs;
    outputs.addInput(path, "DATA.csv");
    if (parsed.has("config"))
        outputs.addInput(parsed.value("config"), "--config");
    outputs.addOutputFolder(outDirectory, "--out");
    if (parsed.has("predictions"))
        outputs.addOutputFile(parsed.value("predictions"), "--predictions");
    outputs.check();

    const LoadedData loaded = loadData(path, parsed);
    const data::Dataset dataset = data::Dataset::fromTable(*loaded.table, loaded.roles, loaded.usableRows);
    const bool json = parsed.has("json");
    for (const auto &warning : loaded.warnings)
        err << "warning: " << warning << '\n';

    const auto rows = static_cast<Eigen::Index>(dataset.rowCount());
    evaluation::Split split;
    if (testFraction > 0.0) {
        split = evaluation::holdOutSplit(rows, testFraction, compute.seed);
    } else {
        for (Eigen::Index row = 0; row < rows; ++row)
            split.train.push_back(row);
    }

    const std::unique_ptr<models::Regressor> model = models::createRegressor(modelName, hyperparameters, compute);
    const auto style = json               ? TrainingReporter::Style::JsonLines
                       : ::isatty(2) != 0 ? TrainingReporter::Style::ProgressBar
                                          : TrainingReporter::Style::EpochLines;
    TrainingReporter reporter(style, out, err);
    calibration::CalibratedFit calibrated;
    if (calibrating) {
        calibrated = calibration::fitCalibrated(*model, dataset, split.train, calibrationSettings, &reporter);
    } else {
        calibrated.rows.fit = split.train;
        calibrated.training = model->fit(dataset, split.train, &reporter);
    }
    reporter.finish();
    const training::TrainingResult &result = calibrated.training;
    if (result.stopReason == training::StopReason::NotFinite || result.stopReason == training::StopReason::Cancelled)
        throw io::InputError(result.message + "; no model was saved");

    const Eigen::VectorXd predicted = calibrating ? calibrated.predicted : model->predict(dataset);
    const std::vector<Eigen::Index> &fitRows = calibrated.rows.fit;
    const auto trainMetrics = metricsOn(dataset.target(), predicted, fitRows);
    Eigen::VectorXd bounds;
    std::optional<BoundReport> boundReport;
    if (calibrating) {
        const calibration::Calibration &stored = *calibrated.calibration;
        bounds =
            stored.upperBounds(dataset.numericFeatures(), dataset.numericFeatureNames(), predicted, stored.coverage());
        if (!split.test.empty())
            boundReport = reportBound(stored, dataset, predicted, bounds, calibrated.rows, split.test);
    }
    // The calibration goes into model.json in the same atomic save as the model.
    calibration::saveCalibratedModel(*model, calibrating ? calibrated.calibration : std::nullopt, outDirectory);
    if (parsed.has("predictions")) {
        std::vector<std::string> splits(dataset.rowCount(), "train");
        for (Eigen::Index row : calibrated.rows.calibration)
            splits[static_cast<std::size_t>(row)] = "calibration";
        for (Eigen::Index row : split.test)
            splits[static_cast<std::size_t>(row)] = "test";
        out.flush(); // predictions sent to /dev/stdout follow the progress printed so far
        io::writeFileAtomically(
            parsed.value("predictions"),
            prediction::predictionCsv(loaded.table->rowCount(), loaded.usableRows, dataset, predicted, splits, bounds));
    }

    const double samplesPerSecond = result.epochs.empty() ? 0.0 : result.epochs.back().samplesPerSecond;
    if (json) {
        io::JsonWriter summary(out, 0);
        summary.beginObject();
        summary.key("event").value("finished");
        summary.key("stop_reason").value(training::stopReasonName(result.stopReason));
        summary.key("message").value(result.message);
        summary.key("epochs_run").value(result.epochs.size());
        summary.key("best_epoch").value(result.bestEpoch);
        summary.key("seconds").value(result.seconds);
        summary.key("samples_per_second").value(samplesPerSecond);
        summary.key("device").value(model->deviceName());
        summary.key("train_rows").value(fitRows.size());
        summary.key("test_rows").value(split.test.size());
        summary.key("train_metrics");
        writeMetrics(summary, trainMetrics);
        if (!split.test.empty()) {
            summary.key("test_metrics");
            writeMetrics(summary, metricsOn(dataset.target(), predicted, split.test));
        }
        if (calibrating) {
            summary.key("calibration");
            writeCalibrationSummary(summary, *calibrated.calibration, calibrated.rows, boundReport);
        }
        summary.key("model_dir").value(outDirectory);
        summary.endObject();
        out << '\n';
    } else {
        if (trainsInEpochs(*model))
            out << result.message << " in " << formatSeconds(result.seconds) << " on " << model->deviceName()
                << " (best epoch " << result.bestEpoch << ")\n";
        else
            out << "fitted " << modelName << " on " << groupedCount(fitRows.size()) << " rows in "
                << formatSeconds(result.seconds) << (result.message.empty() ? "" : " (" + result.message + ")") << '\n';
        out << "train (" << fitRows.size() << " rows): " << describeMetrics(trainMetrics) << '\n';
        if (!split.test.empty())
            out << "test  (" << split.test.size()
                << " rows): " << describeMetrics(metricsOn(dataset.target(), predicted, split.test)) << '\n';
        if (calibrating) {
            const calibration::Calibration &stored = *calibrated.calibration;
            char line[200];
            std::snprintf(line, sizeof line, "upper bound: %s score, coverage %g, margin %.6g (%zu calibration rows)\n",
                          std::string(calibration::scoreName(stored.score())).c_str(), stored.coverage(),
                          stored.margin(stored.coverage()), calibrated.rows.calibration.size());
            out << line;
            if (boundReport) {
                std::snprintf(line, sizeof line,
                              "test %+.2f%% headroom (the smallest reaching %g on the calibration rows): ",
                              boundReport->bestHeadroomPercent, stored.coverage());
                out << "test bound:         " << calibration::describeBoundMetrics(boundReport->bound) << '\n'
                    << "test +10% headroom: " << calibration::describeBoundMetrics(boundReport->tenPercent) << '\n'
                    << line << calibration::describeBoundMetrics(boundReport->bestHeadroom) << '\n';
            }
        }
        out << "saved " << outDirectory << '\n';
    }
    return 0;
}

} // namespace gpumem::cli
