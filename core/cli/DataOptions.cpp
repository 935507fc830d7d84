// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/DataOptions.h"

#include "cli/CommandParser.h"
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

workflows::DataRequest dataRequest(const std::string &path, const DataOptions &options)
{
    workflows::DataRequest request;
    request.path = path;
    request.delimiter = parseDelimiter(options.delimiter);
    request.decimalComma = options.decimalComma;
    if (options.categoricalLimit)
        request.categoricalLimit = static_cast<std::size_t>(*options.categoricalLimit);
    request.target = options.target;
    request.features = nonEmptyItems(options.features);
    request.ignored = nonEmptyItems(options.ignored);
    request.sequenceColumn = options.sequenceColumn;
    request.badCells = data::parseBadCellPolicy(options.onBadCell);
    return request;
}

} // namespace gpumem::cli
