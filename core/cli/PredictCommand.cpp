// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/PredictCommand.h"

#include "calibration/Coverage.h"
#include "cli/CommandParser.h"
#include "cli/DataOptions.h"
#include "cli/ModelOptions.h"
#include "io/InputError.h"
#include "io/OutputPlan.h"
#include "prediction/FilePrediction.h"

#include <optional>

namespace gpumem::cli {

int runPredict(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    CommandParser parser(
        "gpumem predict", "gpumem predict MODEL_DIR DATA.csv [options]",
        "Predicts the peak GPU memory of every job in DATA.csv with a model saved by\n"
        "`gpumem train`. Writes CSV: one row per input row, in order, with the column\n"
        "`prediction`, plus `actual` and `error` (prediction - actual) when DATA.csv has the target.\n"
        "A model trained with --coverage adds `upper_bound`: the memory to request so that the stored\n"
        "share of jobs (or the one --coverage asks for) fits.");
    CLI::App &app = parser.app();
    std::string modelDirectory;
    std::string dataPath;
    app.add_option("MODEL_DIR", modelDirectory, "a model folder written by gpumem train (any model)")->required();
    app.add_option("DATA.csv", dataPath, "the jobs to predict, with the columns the model was trained on")->required();
    std::optional<std::string> outPath;
    app.add_option("--out", outPath, "write here (atomically) instead of to stdout")->type_name("PRED.csv");
    std::string onBadCell = "fail";
    app.add_option("--on-bad-cell", onBadCell, "a row with a missing or invalid cell: stop (default) or leave it empty")
        ->type_name("fail|drop")
        ->check(textCheckedBy([](const std::string &text) { data::parseBadCellPolicy(text); }));
    std::string delimiter = "auto";
    app.add_option("--delimiter", delimiter, "field delimiter (default: detected)")
        ->type_name("auto|comma|semicolon|tab")
        ->check(textCheckedBy([](const std::string &text) { parseDelimiter(text); }));
    ComputeOptions computeOptions;
    app.add_option("--device", computeOptions.device, "where to compute (default auto)")->type_name("auto|cpu|cuda");
    app.add_option("--threads", computeOptions.threads, "CPU threads (default 1)")
        ->type_name("N")
        ->transform(wholeNumber());
    std::optional<double> coverage;
    app.add_option("--coverage", coverage, "serve the upper bound at this coverage instead of the stored one, e.g. 0.9")
        ->type_name("C")
        ->transform(
            numberReadBy([](const std::string &text) { return calibration::parseCoverage(text, "--coverage"); }));
    if (!parser.parse(arguments, out))
        return 0;

    if (outPath) {
        io::OutputPlan outputs;
        outputs.addInput(modelDirectory, "MODEL_DIR");
        outputs.addInput(dataPath, "DATA.csv");
        outputs.addOutputFile(*outPath, "--out");
        outputs.check();
    }
    const prediction::SavedModel saved =
        prediction::loadSavedModel(modelDirectory, computeSettingsFrom(computeOptions));
    // Refused before the data is read: the stored scores decide which levels can be served.
    prediction::checkCoverageServable(saved, modelDirectory, coverage);

    prediction::FilePredictionRequest request;
    request.inputPath = dataPath;
    request.delimiter = parseDelimiter(delimiter);
    request.policy = data::parseBadCellPolicy(onBadCell);
    request.coverage = coverage;
    if (outPath) {
        out.flush(); // anything printed so far comes before a --out /dev/stdout
        request.outputPath = *outPath;
    }
    const prediction::FilePredictions predicted = prediction::predictFile(saved, request);
    for (const auto &warning : predicted.warnings)
        err << "warning: " << warning << '\n';
    if (!outPath)
        out << predicted.csv;
    return 0;
}

} // namespace gpumem::cli
