#include "cli/DataOptions.h"

#include "data/TableLoader.h"
#include "io/InputError.h"

#include <charconv>

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

namespace {

std::size_t parseCount(const std::string &text, const char *option)
{
    std::size_t count = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), count);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size() || count == 0)
        throw io::InputError(std::string(option) + " takes a positive whole number, not " + io::quoteForMessage(text));
    return count;
}

} // namespace

void addDataOptions(ArgumentParser &parser)
{
    parser.option("target", "COLUMN", "the column to predict (peak memory, numeric)")
        .option("features", "A,B,...", "use only these columns as features (repeatable)")
        .option("ignore", "A,B,...", "leave these columns out (repeatable)")
        .option("sequence-column", "COLUMN", "the layer-sequence column, e.g. [('linear', 1173, 2753031), ...]")
        .option("on-bad-cell", "fail|drop",
                "missing or non-finite cells in used columns: stop (default) or drop the row")
        .option("delimiter", "auto|comma|semicolon|tab", "field delimiter (default: detected)")
        .option("categorical-limit", "N", "text columns with more distinct values are identifiers (default 50)");
}

LoadedData loadData(const std::string &path, const ParsedArguments &arguments)
{
    data::TableLoadOptions loadOptions;
    loadOptions.delimiter = parseDelimiter(arguments.value("delimiter"));
    if (arguments.has("categorical-limit"))
        loadOptions.categoricalLimit = parseCount(arguments.value("categorical-limit"), "--categorical-limit");
    const data::BadCellPolicy policy = data::parseBadCellPolicy(arguments.value("on-bad-cell", "fail"));

    data::RoleRequest request;
    request.target = arguments.value("target");
    request.features = arguments.list("features");
    request.ignored = arguments.list("ignore");
    request.sequenceColumn = arguments.value("sequence-column");

    LoadedData loaded;
    loaded.table = data::loadTable(path, loadOptions);
    loaded.roles = data::assignRoles(*loaded.table, request);
    loaded.usableRows = data::selectUsableRows(*loaded.table, loaded.roles, policy, loaded.warnings);
    return loaded;
}

} // namespace gpumem::cli
