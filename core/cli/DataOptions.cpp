// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/DataOptions.h"

#include "data/EncodingLimits.h"
#include "data/TableLoader.h"
#include "io/InputError.h"

namespace gpumem::cli {

char parseDelimiter(const std::string &text)
{
    if (text.empty() || text == "auto")
        return 0;
    if (text == "," || text == "comma")
        return ',';
    if (text == ";" || text == "semicolon")
        return ';';
    if (text == "\t" || text == "\\t" || text == "tab")
        return '\t';
    throw io::InputError("--delimiter takes auto, comma, semicolon or tab, not " + io::quoteForMessage(text));
}

void addDataOptions(ArgumentParser &parser)
{
    parser.option("target", "COLUMN", "the column to predict (peak memory, numeric)")
        .option("features", "A,B,...", "use only these columns as features (repeatable)")
        .option("ignore", "A,B,...", "leave these columns out (repeatable)")
        .option("sequence-column", "COLUMN", "the layer-sequence column, e.g. [('linear', 1173, 2753031), ...]")
        .option("on-bad-cell", "fail|drop",
                "missing or non-finite cells in used columns: stop (default) or drop the row")
        .option("delimiter", "auto|comma|semicolon|tab", "field delimiter (default: detected)")
        .flag("decimal-comma", "numbers use a decimal comma, 1,5 for 1.5 (default: detected in ';' files)")
        .option("categorical-limit", "N", "text columns with more distinct values are identifiers (default 50)");
}

LoadedData loadData(const std::string &path, const ParsedArguments &arguments)
{
    data::TableLoadOptions loadOptions;
    loadOptions.delimiter = parseDelimiter(arguments.value("delimiter"));
    if (arguments.has("categorical-limit"))
        loadOptions.categoricalLimit = static_cast<std::size_t>(
            parseWholeNumber(arguments.value("categorical-limit"), "--categorical-limit", true));
    if (arguments.has("decimal-comma"))
        loadOptions.decimalComma = true;
    const data::BadCellPolicy policy = data::parseBadCellPolicy(arguments.value("on-bad-cell", "fail"));

    data::RoleRequest request;
    request.target = arguments.value("target");
    request.features = arguments.list("features");
    request.ignored = arguments.list("ignore");
    request.sequenceColumn = arguments.value("sequence-column");

    LoadedData loaded;
    loaded.table = data::loadTable(path, loadOptions);
    loaded.roles = data::assignRoles(*loaded.table, request);
    loaded.warnings = loaded.table->nonNumericCellNotes();
    loaded.usableRows = data::selectUsableRows(*loaded.table, loaded.roles, policy, loaded.warnings);
    // Checked here too, so that inspect refuses what training would, before any model is built.
    const auto encodingWarnings = data::checkEncodingLimits(*loaded.table, loaded.roles, loaded.usableRows);
    loaded.warnings.insert(loaded.warnings.end(), encodingWarnings.begin(), encodingWarnings.end());
    return loaded;
}

} // namespace gpumem::cli
