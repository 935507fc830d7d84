// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/PredictCommand.h"

#include "calibration/Coverage.h"
#include "cli/ArgumentParser.h"
#include "cli/DataOptions.h"
#include "cli/ModelOptions.h"
#include "data/TableLoader.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/OutputPlan.h"
#include "prediction/PredictionFile.h"
#include "prediction/Predictor.h"

#include <optional>

namespace gpumem::cli {

int runPredict(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    ArgumentParser parser(
        "gpumem predict MODEL_DIR DATA.csv [options]",
        "Predicts the peak GPU memory of every job in DATA.csv with a model saved by\n"
        "`gpumem train`. Writes CSV: one row per input row, in order, with the column\n"
        "`prediction`, plus `actual` and `error` (prediction - actual) when DATA.csv has the target.\n"
        "A model trained with --coverage adds `upper_bound`: the memory to request so that the stored\n"
        "share of jobs (or the one --coverage asks for) fits.");
    parser.positional("MODEL_DIR", "a model folder written by gpumem train (any model)");
    parser.positional("DATA.csv", "the jobs to predict, with the columns the model was trained on");
    parser.option("out", "PRED.csv", "write here (atomically) instead of to stdout")
        .option("on-bad-cell", "fail|drop", "a row with a missing or invalid cell: stop (default) or leave it empty")
        .option("delimiter", "auto|comma|semicolon|tab", "field delimiter (default: detected)")
        .option("device", "auto|cpu|cuda", "where to compute (default auto)")
        .option("threads", "N", "CPU threads (default 1)")
        .option("coverage", "C", "serve the upper bound at this coverage instead of the stored one, e.g. 0.9");

    const ParsedArguments parsed = parser.parse(arguments);
    if (parsed.helpRequested()) {
        out << parser.helpText();
        return 0;
    }
    if (parsed.has("out")) {
        io::OutputPlan outputs;
        outputs.addInput(parsed.positionals()[0], "MODEL_DIR");
        outputs.addInput(parsed.positionals()[1], "DATA.csv");
        outputs.addOutputFile(parsed.value("out"), "--out");
        outputs.check();
    }
    const std::string modelDirectory = parsed.positionals()[0];
    std::optional<double> coverage;
    if (parsed.has("coverage"))
        coverage = calibration::parseCoverage(parsed.value("coverage"), "--coverage");
    const prediction::SavedModel saved = prediction::loadSavedModel(modelDirectory, computeSettingsFrom(parsed));
    // Refused before the data is read: the stored scores decide which levels can be served.
    prediction::checkCoverageServable(saved, modelDirectory, coverage);

    data::TableLoadOptions loadOptions = prediction::predictionLoadOptions();
    loadOptions.delimiter = parseDelimiter(parsed.value("delimiter"));
    const data::Table table = data::loadTable(parsed.positionals()[1], loadOptions);
    const prediction::Predictions predictions =
        prediction::predictTable(saved, table, data::parseBadCellPolicy(parsed.value("on-bad-cell", "fail")), coverage);
    for (const auto &warning : predictions.warnings)
        err << "warning: " << warning << '\n';
    const std::string csv = prediction::predictionCsv(table.rowCount(), predictions.usableRows, predictions.dataset,
                                                      predictions.predicted, {}, predictions.upperBounds);
    if (parsed.has("out")) {
        out.flush(); // anything printed so far comes before a --out /dev/stdout
        io::writeFileAtomically(parsed.value("out"), csv);
    } else {
        out << csv;
    }
    return 0;
}

} // namespace gpumem::cli
