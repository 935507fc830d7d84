#include "cli/PredictCommand.h"

#include "calibration/CalibrationJson.h"
#include "calibration/Coverage.h"
#include "cli/ArgumentParser.h"
#include "cli/DataOptions.h"
#include "cli/ModelOptions.h"
#include "cli/PredictionFile.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/OutputPlan.h"
#include "models/RegressorRegistry.h"

#include <optional>

namespace gpumem::cli {

data::RoleRequest rolesForModel(const models::ModelSchema &schema, const data::Table &table)
{
    data::RoleRequest request;
    const data::FeatureEncoding &encoding = schema.encoding;
    request.features = encoding.numericColumns;
    for (const auto &categorical : encoding.categoricals)
        request.features.push_back(categorical.column);
    request.sequenceColumn = encoding.sequenceColumn;
    std::vector<std::string> needed = request.features;
    if (!request.sequenceColumn.empty())
        needed.push_back(request.sequenceColumn);
    for (const auto &column : needed)
        if (!table.columnIndex(column))
            throw io::InputError(table.source(), 1, 0,
                                 "missing column " + io::quoteForMessage(column, 60) +
                                     ", which the model was trained with; the file has: " + table.columnNameList());
    for (const auto &column : encoding.numericColumns) {
        const data::Column &found = table.column(*table.columnIndex(column));
        if (found.type != data::ColumnType::Numeric) {
            const data::BadCell cell = found.firstNonNumericCell.value_or(data::BadCell{0, "it has no values"});
            throw io::InputError(table.source(), cell.line, static_cast<std::int64_t>(found.index + 1),
                                 "column " + io::quoteForMessage(column, 60) +
                                     " must be numeric, as in training, but " + cell.reason);
        }
    }
    if (table.columnIndex(schema.target) &&
        table.column(*table.columnIndex(schema.target)).type == data::ColumnType::Numeric)
        request.target = schema.target;
    if (request.features.empty() && request.sequenceColumn.empty())
        throw io::InputError("the model has no input columns");
    return request;
}

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
    models::ComputeSettings compute = computeSettingsFrom(parsed);
    const std::unique_ptr<models::Regressor> model = models::loadRegressor(modelDirectory, compute);
    const std::optional<calibration::Calibration> calibrated = calibration::readStoredCalibration(modelDirectory);
    if (coverage && !calibrated)
        throw io::InputError(modelDirectory, 0, 0,
                             "the model was trained without --coverage, so it has no calibration to serve --coverage "
                             "from; train it again with --coverage");
    if (calibrated) {
        // Refused before the data is read: the stored scores decide which levels can be served.
        const double level = coverage.value_or(calibrated->coverage());
        try {
            calibrated->margin(level);
        } catch (const io::InputError &error) {
            throw io::InputError(modelDirectory, 0, 0, error.message());
        }
    }

    data::TableLoadOptions loadOptions;
    loadOptions.delimiter = parseDelimiter(parsed.value("delimiter"));
    // Every text column may be a feature here, so none may turn into an unusable identifier.
    loadOptions.categoricalLimit = std::numeric_limits<std::size_t>::max();
    const data::Table table = data::loadTable(parsed.positionals()[1], loadOptions);
    const data::RoleRequest request = rolesForModel(model->schema(), table);
    const auto roles = data::assignRoles(table, request);
    std::vector<std::string> warnings;
    const auto usable =
        data::selectUsableRows(table, roles, data::parseBadCellPolicy(parsed.value("on-bad-cell", "fail")), warnings);
    for (const auto &warning : warnings)
        err << "warning: " << warning << '\n';
    const data::Dataset dataset = data::Dataset::fromTable(table, roles, usable);
    const Eigen::VectorXd predicted = model->predict(dataset);

    Eigen::VectorXd bounds;
    if (calibrated)
        bounds = calibrated->upperBounds(dataset.numericFeatures(), dataset.numericFeatureNames(), predicted,
                                         coverage.value_or(calibrated->coverage()));
    const std::string csv = predictionCsv(table.rowCount(), usable, dataset, predicted, {}, bounds);
    if (parsed.has("out")) {
        out.flush(); // anything printed so far comes before a --out /dev/stdout
        io::writeFileAtomically(parsed.value("out"), csv);
    } else {
        out << csv;
    }
    return 0;
}

} // namespace gpumem::cli
