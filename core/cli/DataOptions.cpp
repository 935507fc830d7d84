// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/DataOptions.h"

#include "cli/CommandParser.h"
#include "data/ColumnNotes.h"
#include "data/EncodingLimits.h"
#include "data/RoleNotes.h"
#include "data/TableLoader.h"
#include "io/InputError.h"

#include <algorithm>

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

void requireTarget(const DataOptions &options)
{
    if (options.target.empty())
        throw io::InputError("missing --target COLUMN (see 'gpumem inspect' for candidates)");
}

void addDataOptions(CLI::App &app, DataOptions &options)
{
    app.add_option("--target", options.target, "the column to predict (peak memory, numeric)")->type_name("COLUMN");
    addListOption(app, "--features", options.features, "A,B,...", "use only these columns as features (repeatable)");
    addListOption(app, "--ignore", options.ignored, "A,B,...", "leave these columns out (repeatable)");
    app.add_option("--sequence-column", options.sequenceColumn,
                   "the layer-sequence column, e.g. [('linear', 1173, 2753031), ...]")
        ->type_name("COLUMN");
    app.add_option("--on-bad-cell", options.onBadCell,
                   "missing or non-finite cells in used columns: stop (default) or drop the row")
        ->type_name("fail|drop")
        ->check(textCheckedBy([](const std::string &text) { data::parseBadCellPolicy(text); }));
    app.add_option("--delimiter", options.delimiter, "field delimiter (default: detected)")
        ->type_name("auto|comma|semicolon|tab")
        ->check(textCheckedBy([](const std::string &text) { parseDelimiter(text); }));
    app.add_flag("--decimal-comma", options.decimalComma,
                 "numbers use a decimal comma, 1,5 for 1.5 (default: detected in ';' files)");
    app.add_option("--categorical-limit", options.categoricalLimit,
                   "text columns with more distinct values are identifiers (default 50)")
        ->type_name("N")
        ->transform(wholeNumber(1));
}

LoadedData loadData(const std::string &path, const DataOptions &options)
{
    data::TableLoadOptions loadOptions;
    loadOptions.delimiter = parseDelimiter(options.delimiter);
    if (options.categoricalLimit)
        loadOptions.categoricalLimit = static_cast<std::size_t>(*options.categoricalLimit);
    if (options.decimalComma)
        loadOptions.decimalComma = true;
    const data::BadCellPolicy policy = data::parseBadCellPolicy(options.onBadCell);

    data::RoleRequest request;
    request.target = options.target;
    request.features = nonEmptyItems(options.features);
    request.ignored = nonEmptyItems(options.ignored);
    request.sequenceColumn = options.sequenceColumn;
    // As the workbench's Data page: a column of one value has nothing to teach any model.
    request.ignoreConstantColumns = true;

    LoadedData loaded;
    loaded.table = data::loadTable(path, loadOptions);
    // The other outcomes the data's notes name are ignored unless --features asks for them.
    const data::ColumnNotes notes = data::readColumnNotes(path);
    std::vector<std::string> others;
    for (const auto &name : data::otherOutcomes(*loaded.table, notes, request.target))
        if (std::find(request.features.begin(), request.features.end(), name) == request.features.end() &&
            std::find(request.ignored.begin(), request.ignored.end(), name) == request.ignored.end())
            others.push_back(name);
    request.ignored.insert(request.ignored.end(), others.begin(), others.end());
    loaded.roles = data::assignRoles(*loaded.table, request);
    loaded.warnings = loaded.table->nonNumericCellNotes();
    if (!others.empty())
        loaded.warnings.push_back(data::otherOutcomesNote(others, notes));
    // A file with notes names its outcomes itself; a column the user named in
    // --features is kept on purpose and needs no word.
    for (auto &outcome : data::likelyOutcomes(*loaded.table, loaded.roles, notes))
        if (std::find(request.features.begin(), request.features.end(), outcome.column) == request.features.end())
            loaded.likelyOutcomes.push_back(std::move(outcome));
    if (!loaded.likelyOutcomes.empty())
        loaded.warnings.push_back(data::likelyOutcomesNote(loaded.likelyOutcomes));
    const auto constants = data::ignoredConstantColumns(*loaded.table, loaded.roles, request.ignored);
    if (!constants.empty())
        loaded.warnings.push_back(data::constantColumnsNote(constants));
    loaded.usableRows = data::selectUsableRows(*loaded.table, loaded.roles, policy, loaded.warnings);
    // Checked here too, so that inspect refuses what training would, before any model is built.
    const auto encodingWarnings = data::checkEncodingLimits(*loaded.table, loaded.roles, loaded.usableRows);
    loaded.warnings.insert(loaded.warnings.end(), encodingWarnings.begin(), encodingWarnings.end());
    return loaded;
}

} // namespace gpumem::cli
