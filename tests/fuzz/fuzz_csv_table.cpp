// Feeds arbitrary bytes through the whole table path: delimiter detection,
// the CSV reader, type inference, typed storage, roles and the bad-cell policy.
// Only io::InputError may come out; anything else (a crash, a sanitizer report,
// another exception) is a bug.
#include "data/ColumnRoles.h"
#include "data/ColumnSummary.h"
#include "data/Dataset.h"
#include "data/FeatureEncoder.h"
#include "data/TableLoader.h"
#include "io/InputError.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        gpumem::data::TableLoadOptions options;
        options.categoricalLimit = 4; // small, so identifiers and categories both occur
        const auto table = gpumem::data::loadTableFromText(text, "fuzz.csv", options);
        for (const auto &column : table.columns())
            gpumem::data::summarizeColumn(column, table.rowCount());
        gpumem::data::targetCandidates(table);
        const auto roles = gpumem::data::defaultRoles(table);
        std::vector<std::string> warnings;
        const auto dataset =
            gpumem::data::Dataset::fromTable(table, roles, gpumem::data::BadCellPolicy::DropRow, warnings);
        std::vector<Eigen::Index> rows;
        for (Eigen::Index row = 0; row < static_cast<Eigen::Index>(dataset.rowCount()); row += 2)
            rows.push_back(row);
        gpumem::data::FeatureEncoder encoder;
        encoder.fit(dataset, rows);
        encoder.transform(dataset);
    } catch (const gpumem::io::InputError &) {
        // Rejected with a message: the expected outcome for most random input.
    }
    return 0;
}
